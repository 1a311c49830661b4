//! The value map in tiles: squares of [`TILE`]² cells (small, so that even a map searched
//! cell by cell appears piece by piece), computed on demand by the worker
//! (the tiles the view shows first, nearest its centre first) and kept in a [`TileStore`]
//! capped in memory, least recently used evicted first.
//!
//! A tile's values depend on cells below and left of it (options only lower heaps), so a
//! [`TileSource`] computes tiles the way its ruleset allows honestly:
//! - symmetric two-heap rulesets with a fast fill grow one triangle row by row ([`Growing`]):
//!   a tile needs the rows up to its top edge, and each job continues where the last stopped;
//! - slices of games on more heaps (and rulesets without a fast fill) search each cell with
//!   one memoised [`Search`], so tiles come in any order and share what was learned;
//! - the rest (Fibonacci Nim, sums) refill a larger rectangle from the origin when a tile lies
//!   outside the one they have.

use std::cell::Cell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::control::{Control, SolveError};
use super::grid::{self, Cells, Grid, Growing, NONE};
use super::search::Search;
use crate::game::{Layout, Presentation};
use crate::game::{Ruleset, Shape};

/// Side of a tile in cells.
pub const TILE: u64 = 64;

/// A tile's place: tile row `row` holds the cell rows `[row·TILE, (row+1)·TILE)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileKey {
    pub row: u64,
    pub col: u64,
}

impl TileKey {
    pub fn of_cell(a: u64, b: u64) -> Self {
        Self {
            row: a / TILE,
            col: b / TILE,
        }
    }

    pub fn rows(&self) -> Range<u64> {
        self.row * TILE..(self.row + 1) * TILE
    }

    pub fn cols(&self) -> Range<u64> {
        self.col * TILE..(self.col + 1) * TILE
    }

    /// How far from the origin the tile lies, in tiles (what a growing fill must reach).
    pub fn reach(&self) -> u64 {
        self.row.max(self.col)
    }
}

/// The values of one tile.
#[derive(Debug, Clone)]
pub struct Tile {
    cells: Cells,
    max: u32,
}

impl Tile {
    /// Builds a tile from the value of each cell (`None`: not a position), row by row.
    fn build(
        key: TileKey,
        control: &Control,
        mut value: impl FnMut(u64, u64) -> Result<Option<u32>, SolveError>,
    ) -> Result<Self, SolveError> {
        let mut raw = Vec::with_capacity((TILE * TILE) as usize);
        for a in key.rows() {
            control.check()?;
            for b in key.cols() {
                raw.push(value(a, b)?.unwrap_or(NONE));
            }
            control.add_done(TILE);
        }
        let max = raw.iter().copied().filter(|&v| v != NONE).max().unwrap_or(0);
        let mut cells = Cells::new(raw.len(), max as u64 + 1);
        for (i, v) in raw.into_iter().enumerate() {
            cells.set(i, v);
        }
        Ok(Self { cells, max })
    }

    /// The value at (a, b), cell coordinates inside the tile; `None` if it is not a position.
    pub fn get(&self, a: u64, b: u64) -> Option<u32> {
        let v = self.cells.get((a * TILE + b) as usize);
        (v != NONE).then_some(v)
    }

    pub fn max_value(&self) -> u32 {
        self.max
    }

    pub fn bytes(&self) -> u64 {
        self.cells.len() as u64 * if matches!(self.cells, Cells::Narrow(_)) { 2 } else { 4 }
    }
}

enum Method {
    /// The ruleset has no map under this layout (see [`Presentation`]): why.
    NoMap(String),
    Growing(Box<Growing>),
    Search(Box<Search>),
    Whole(Option<Grid>),
}

/// Computes the tiles of one ruleset and layout; a worker lane keeps it between jobs.
pub struct TileSource {
    ruleset: Ruleset,
    layout: Layout,
    method: Method,
}

impl TileSource {
    pub fn new(ruleset: &Ruleset, layout: &Layout) -> Self {
        let growing = match layout {
            Layout::Plain => Growing::new(ruleset),
            Layout::Slice(_) => None,
        };
        let no_map = Presentation::of(ruleset, layout).why_no_map(ruleset);
        let method = match (no_map, growing) {
            (Some(why), _) => Method::NoMap(why),
            (None, Some(g)) => Method::Growing(Box::new(g)),
            (None, None)
                if *layout == Layout::Plain
                    && (grid::has_fast_fill(ruleset) || (ruleset.shape() == Shape::Sum && !ruleset.has_misere())) =>
            {
                Method::Whole(None)
            }
            (None, None) => Method::Search(Box::new(Search::new(ruleset.clone()))),
        };
        Self {
            ruleset: ruleset.clone(),
            layout: layout.clone(),
            method,
        }
    }

    /// Memory kept between jobs: the grown map, the search memo or the whole rectangle.
    pub fn bytes(&self) -> u64 {
        match &self.method {
            Method::NoMap(_) => 0,
            Method::Growing(g) => g.held_bytes(),
            Method::Search(s) => s.bytes(),
            Method::Whole(g) => g.as_ref().map_or(0, Grid::bytes),
        }
    }

    /// Whether this source computes `ruleset` under `layout`.
    pub fn serves(&self, ruleset: &Ruleset, layout: &Layout) -> bool {
        self.ruleset == *ruleset && self.layout == *layout
    }

    /// Cells of work `key` will take (for the progress bar): the rows a growing fill still
    /// needs, or the rectangle a whole fill recomputes, and the tile itself.
    pub fn work(&self, key: TileKey) -> u64 {
        let tri = |n: u64| n * (n + 1) / 2;
        TILE * TILE
            + match &self.method {
                Method::NoMap(_) => 0,
                Method::Growing(g) => tri((key.reach() + 1) * TILE).saturating_sub(tri(g.rows())),
                Method::Search(_) => 0,
                Method::Whole(g) => match g {
                    Some(g) if g.rows.end >= key.rows().end && g.cols.end >= key.cols().end => 0,
                    _ => key.rows().end * key.cols().end,
                },
            }
    }

    /// The values of tile `key`.
    pub fn tile(&mut self, key: TileKey, control: &Control) -> Result<Tile, SolveError> {
        let (ruleset, layout) = (&self.ruleset, &self.layout);
        match &mut self.method {
            Method::NoMap(why) => Err(SolveError::Unsupported(why.clone())),
            Method::Growing(g) => {
                g.grow_to((key.reach() + 1) * TILE, control)?;
                Tile::build(key, control, |a, b| Ok(Some(g.raw(a, b)).filter(|&v| v != NONE)))
            }
            Method::Search(search) => Tile::build(key, control, |a, b| {
                let p = layout.position(ruleset, crate::game::Cell::new(a, b));
                match ruleset.check_position(&p) {
                    Ok(()) => search.value(&p, control).map(Some),
                    Err(_) => Ok(None),
                }
            }),
            Method::Whole(whole) => {
                let (r, c) = (key.rows().end, key.cols().end);
                let g = match whole {
                    Some(g) if g.rows.end >= r && g.cols.end >= c => g,
                    _ => {
                        let (r0, c0) = whole.as_ref().map_or((0, 0), |g| (g.rows.end, g.cols.end));
                        *whole = None; // free the old rectangle before filling the larger one
                        whole.insert(grid::grid(ruleset, layout, 0..r.max(r0), 0..c.max(c0), control)?)
                    }
                };
                Tile::build(key, control, |a, b| Ok(g.get(a, b)))
            }
        }
    }
}

#[derive(Debug)]
struct Stored {
    tile: Arc<Tile>,
    /// The store's clock when the tile was last shown or inserted.
    used: u64,
}

/// Finished tiles of one map, at most `cap` bytes of them: inserting past the cap evicts the
/// tiles least recently used (never those used in the current frame).
#[derive(Debug)]
pub struct TileStore {
    tiles: HashMap<TileKey, Stored>,
    clock: u64,
    bytes: u64,
    cap: u64,
    max: u32,
    /// Tiles evicted since the store was created or cleared.
    evicted: u64,
    /// Changes whenever the set of tiles changes (to repaint the map only then).
    generation: u64,
}

impl TileStore {
    pub fn new(cap: u64) -> Self {
        Self {
            tiles: HashMap::new(),
            clock: 1,
            bytes: 0,
            cap,
            max: 0,
            evicted: 0,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        let cap = self.cap;
        let generation = self.generation + 1;
        *self = Self::new(cap);
        self.generation = generation;
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn cap(&self) -> u64 {
        self.cap
    }

    pub fn evicted(&self) -> u64 {
        self.evicted
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The largest value of any tile received (for scaling colour maps).
    pub fn max_value(&self) -> u32 {
        self.max
    }

    pub fn contains(&self, key: TileKey) -> bool {
        self.tiles.contains_key(&key)
    }

    pub fn tile(&self, key: TileKey) -> Option<&Arc<Tile>> {
        self.tiles.get(&key).map(|s| &s.tile)
    }

    /// Starts a new frame: tiles touched from now on count as used in it.
    pub fn tick(&mut self) {
        self.clock += 1;
    }

    /// Marks the tiles the view shows as used now.
    pub fn touch(&mut self, keys: &[TileKey]) {
        for k in keys {
            if let Some(s) = self.tiles.get_mut(k) {
                s.used = self.clock;
            }
        }
    }

    /// Whether a tile of `bytes` more fits without evicting one used in this frame.
    pub fn has_room_for(&self, bytes: u64) -> bool {
        let in_use: u64 = self
            .tiles
            .values()
            .filter(|s| s.used == self.clock)
            .map(|s| s.tile.bytes())
            .sum();
        in_use + bytes <= self.cap
    }

    /// Adds a tile, evicting least recently used ones to stay within the cap; returns how many
    /// were evicted.
    pub fn insert(&mut self, key: TileKey, tile: Arc<Tile>) -> usize {
        self.max = self.max.max(tile.max_value());
        self.bytes += tile.bytes();
        if let Some(old) = self.tiles.insert(key, Stored { tile, used: self.clock }) {
            self.bytes -= old.tile.bytes();
        }
        self.generation += 1;
        let mut evicted = 0;
        while self.bytes > self.cap {
            let Some((&k, _)) = self
                .tiles
                .iter()
                .filter(|(_, s)| s.used < self.clock)
                .min_by_key(|(k, s)| (s.used, **k))
            else {
                break; // everything left is in view
            };
            if let Some(s) = self.tiles.remove(&k) {
                self.bytes -= s.tile.bytes();
            }
            evicted += 1;
        }
        self.evicted += evicted as u64;
        evicted
    }

    /// The value at cell (a, b): `None` if its tile is not computed, `Some(None)` if the cell
    /// is not a position.
    pub fn get(&self, a: u64, b: u64) -> Option<Option<u32>> {
        let key = TileKey::of_cell(a, b);
        self.tile(key).map(|t| t.get(a % TILE, b % TILE))
    }

    /// A reader that remembers the last tile it looked up (a raster reads runs of cells of
    /// the same tile).
    pub fn reader(&self) -> TileReader<'_> {
        TileReader {
            store: self,
            last: Cell::new(None),
        }
    }

    /// One past the largest row and column of any tile held (0 when empty).
    pub fn extent(&self) -> u64 {
        self.tiles.keys().map(|k| (k.reach() + 1) * TILE).max().unwrap_or(0)
    }
}

/// Reads cells through a one-tile cache.
pub struct TileReader<'a> {
    store: &'a TileStore,
    last: Cell<Option<(TileKey, Option<&'a Tile>)>>,
}

impl TileReader<'_> {
    /// As [`TileStore::get`].
    pub fn get(&self, a: u64, b: u64) -> Option<Option<u32>> {
        let key = TileKey::of_cell(a, b);
        let tile = match self.last.get() {
            Some((k, t)) if k == key => t,
            _ => {
                let t = self.store.tile(key).map(|t| &**t);
                self.last.set(Some((key, t)));
                t
            }
        };
        tile.map(|t| t.get(a % TILE, b % TILE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grid::grid;

    fn keys(n: u64) -> Vec<TileKey> {
        (0..n)
            .flat_map(|row| (0..n).map(move |col| TileKey { row, col }))
            .collect()
    }

    /// Tiles computed in any order (far ones first, then near, then a cancelled growth) hold
    /// exactly the plain grid's values.
    #[test]
    fn tiles_in_any_order_match_the_plain_grid() {
        let c = Control::new();
        for (rules, slice) in [
            ("wythoff", None),
            ("nim", None),
            ("euclid", None),
            ("grossman", None),
            ("cdn", None),
            ("push(nim,euclid0)", None),
            ("misere(wythoff)", None),
            ("fibonacci-nim", None),
            ("sum(sub(1,2),tag(3))", None),
            ("zeruclid", Some("1,_,_")),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
            let n = if slice.is_some() { 2 } else { 5 };
            let plain = grid(&r, &layout, 0..n * TILE, 0..n * TILE, &c).unwrap();
            let mut order = keys(n);
            order.reverse();
            let last = order.len() - 1;
            order.swap(1, last);
            let mut source = TileSource::new(&r, &layout);
            let mut store = TileStore::new(u64::MAX);
            for key in order {
                store.insert(key, Arc::new(source.tile(key, &c).unwrap()));
            }
            let reader = store.reader();
            for a in 0..n * TILE {
                for b in 0..n * TILE {
                    assert_eq!(reader.get(a, b), Some(plain.get(a, b)), "{rules} at ({a}, {b})");
                }
            }
            assert_eq!(store.max_value(), plain.max_value(), "{rules}");
        }
    }

    #[test]
    fn a_cancelled_growth_resumes_where_it_stopped() {
        let r: Ruleset = "wythoff".parse().unwrap();
        let mut g = Growing::new(&r).unwrap();
        let c = Control::new();
        g.grow_to(300, &c).unwrap();
        let cancelled = Control::new();
        cancelled.cancel();
        assert_eq!(g.grow_to(900, &cancelled), Err(SolveError::Cancelled));
        assert_eq!(g.rows(), 300);
        g.grow_to(700, &c).unwrap();
        let plain = grid(&r, &Layout::Plain, 0..700, 0..700, &c).unwrap();
        for a in (0..700).step_by(7) {
            for b in 0..700 {
                assert_eq!(Some(g.raw(a, b)), plain.get(a, b), "({a}, {b})");
            }
        }
    }

    #[test]
    fn the_store_evicts_the_least_recently_used_tiles_but_not_those_in_view() {
        let c = Control::new();
        let r: Ruleset = "nim".parse().unwrap();
        let mut source = TileSource::new(&r, &Layout::Plain);
        let t = Arc::new(source.tile(TileKey { row: 0, col: 0 }, &c).unwrap());
        let mut store = TileStore::new(3 * t.bytes());
        let k = |row, col| TileKey { row, col };
        for key in [k(0, 0), k(0, 1), k(1, 0)] {
            store.insert(key, t.clone());
        }
        store.tick();
        store.touch(&[k(0, 0)]);
        store.tick();
        store.touch(&[k(1, 0)]);
        assert_eq!(store.insert(k(1, 1), t.clone()), 1);
        assert!(!store.contains(k(0, 1)), "the least recently used goes first");
        assert_eq!(store.insert(k(2, 2), t.clone()), 1);
        assert!(!store.contains(k(0, 0)) && store.contains(k(1, 0)));
        // everything in the current frame: nothing is evicted, the store goes over its cap
        store.touch(&[k(1, 0), k(1, 1), k(2, 2)]);
        assert!(!store.has_room_for(t.bytes()));
        assert_eq!(store.get(TILE + 5, TILE + 5), Some(Some(0)));
        assert_eq!(store.get(3 * TILE, 0), None);
    }
}
