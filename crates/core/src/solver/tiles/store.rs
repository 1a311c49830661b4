//! The window's side of the map: the tiles received, kept in a [`TileStore`] capped in memory
//! (least recently used evicted first, never one shown in the current frame). A tile received
//! is merged into the one held (values are final, so only missing pooled cells are taken) and
//! pooled upwards into its ancestors, so a coarser level always shows at least what the finer
//! ones know, and a zoom out draws at once.

use std::cell::Cell;
use std::collections::HashMap;

use super::{KeyRule, NO_POSITION, NOT_COMPUTED, TILE, Tile, TileKey};

/// Levels above a tile received that it is pooled into.
const POOL_UP: usize = 5;

#[derive(Debug)]
struct Stored {
    tile: Tile,
    /// The store's clock when the tile was last shown or changed.
    used: u64,
    /// Changes whenever the tile gains pooled cells (to upload only changed tiles).
    version: u64,
}

/// The tiles of one map under one key rule, at most `cap` bytes of them.
#[derive(Debug)]
pub struct TileStore {
    tiles: HashMap<TileKey, Stored>,
    rule: KeyRule,
    clock: u64,
    bytes: u64,
    cap: u64,
    /// Tiles evicted since the store was created or cleared.
    evicted: u64,
    /// Changes whenever a tile changes (to redo what depends on the tiles only then).
    generation: u64,
    /// Changes whenever the store is cleared (tiles of the same place may then differ).
    epoch: u64,
}

impl TileStore {
    /// An empty store holding at most `cap` bytes of tiles, keyed by [`KeyRule::Value`].
    pub fn new(cap: u64) -> Self {
        Self {
            tiles: HashMap::new(),
            rule: KeyRule::Value,
            clock: 1,
            bytes: 0,
            cap,
            evicted: 0,
            generation: 0,
            epoch: 0,
        }
    }

    /// Forgets every tile (a new ruleset, layout or key rule).
    pub fn clear(&mut self) {
        let (cap, rule, generation, epoch) = (self.cap, self.rule, self.generation + 1, self.epoch + 1);
        *self = Self::new(cap);
        self.rule = rule;
        self.generation = generation;
        self.epoch = epoch;
    }

    /// The rule the keys follow.
    pub fn rule(&self) -> KeyRule {
        self.rule
    }

    /// Makes the store hold keys of `rule`, forgetting the tiles of another one. Between rules
    /// whose keys are the values (the pooled pixel's choices: least, most common, greatest)
    /// a level-0 tile is the same under each: those are kept, and pooled upwards again by the
    /// new rule; only the coarser tiles are forgotten.
    pub fn set_rule(&mut self, rule: KeyRule) {
        if self.rule == rule {
            return;
        }
        let keep = self.rule.keys_are_values() && rule.keys_are_values();
        let mut kept: Vec<(TileKey, Tile)> = if keep {
            self.tiles
                .drain()
                .filter(|(k, _)| k.level == 0)
                .map(|(k, s)| (k, s.tile))
                .collect()
        } else {
            Vec::new()
        };
        self.rule = rule;
        self.clear();
        kept.sort_by_key(|(k, _)| *k);
        for (k, t) in &kept {
            self.insert(*k, t);
        }
    }

    /// Number of tiles held.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether no tile is held.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Bytes the tiles held take (counted against [`TileStore::cap`]).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Most bytes of tiles held; beyond it the least recently used are evicted.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// Tiles evicted since the store was created or cleared.
    pub fn evicted(&self) -> u64 {
        self.evicted
    }

    /// Changes whenever a tile changes (to redo what depends on the tiles only then).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Changes whenever the store forgets its tiles.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether the tile `key` is held.
    pub fn contains(&self, key: TileKey) -> bool {
        self.tiles.contains_key(&key)
    }

    /// The tile `key`, if held.
    pub fn tile(&self, key: TileKey) -> Option<&Tile> {
        self.tiles.get(&key).map(|s| &s.tile)
    }

    /// The tile and its version (which changes whenever it gains pooled cells).
    pub fn tile_version(&self, key: TileKey) -> Option<(&Tile, u64)> {
        self.tiles.get(&key).map(|s| (&s.tile, s.version))
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

    /// Whether `bytes` more fit without evicting a tile used in this frame.
    pub fn has_room_for(&self, bytes: u64) -> bool {
        let in_use: u64 = self
            .tiles
            .values()
            .filter(|s| s.used == self.clock)
            .map(|s| s.tile.bytes())
            .sum();
        in_use + bytes <= self.cap
    }

    /// Merges a tile received into the store and pools it into its ancestors; evicts least
    /// recently used tiles to stay within the cap and returns how many.
    pub fn insert(&mut self, key: TileKey, tile: &Tile) -> usize {
        if !self.merge(key, tile) {
            return 0;
        }
        // pool upwards while the ancestors gain something (a few levels: far above, a tile
        // is a few pooled cells of a tile that would cost as much as itself)
        let mut child = key;
        // a most common value is counted from the cells, never pooled from keys
        let levels = if self.rule.pools_by_combining() { POOL_UP } else { 0 };
        for _ in 0..levels {
            let Some((parent, i0, j0)) = child.parent() else { break };
            let mut pooled = self.tiles.remove(&parent).unwrap_or_else(|| Stored {
                tile: Tile::empty(false),
                used: self.clock,
                version: 0,
            });
            let fresh = pooled.version == 0;
            let changed = match self.tiles.get(&child) {
                Some(c) => pooled.tile.pool_from(&c.tile, i0, j0, self.rule),
                None => false,
            };
            if fresh && !changed {
                break; // nothing to pool: keep no empty ancestor
            }
            if fresh {
                self.bytes += pooled.tile.bytes();
            }
            if changed {
                pooled.version += 1;
                pooled.used = self.clock;
            }
            self.tiles.insert(parent, pooled);
            if !changed {
                break;
            }
            child = parent;
        }
        self.generation += 1;
        self.evict()
    }

    fn merge(&mut self, key: TileKey, tile: &Tile) -> bool {
        match self.tiles.get_mut(&key) {
            Some(s) => {
                if s.tile.values.is_none() && tile.values.is_some() {
                    // keys pooled upwards earlier have no values: take the tile as sent
                    let mut t = tile.clone();
                    t.merge(&s.tile);
                    self.bytes = self.bytes + t.bytes() - s.tile.bytes();
                    s.tile = t;
                } else if !s.tile.merge(tile) {
                    return false;
                }
                s.version += 1;
                s.used = self.clock;
                true
            }
            None => {
                self.bytes += tile.bytes();
                self.tiles.insert(
                    key,
                    Stored {
                        tile: tile.clone(),
                        used: self.clock,
                        version: 1,
                    },
                );
                true
            }
        }
    }

    fn evict(&mut self) -> usize {
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

    /// The key of the pooled cell of `level` holding cell (a, b): `None` if that tile is not
    /// held, `Some(NOT_COMPUTED)` if the block is not computed yet.
    pub fn key(&self, level: u8, a: u64, b: u64) -> Option<u32> {
        let key = TileKey::at(level, a, b);
        let s = TileKey::block_of(level);
        let origin = key.cells();
        self.tile(key).map(|t| {
            t.key(
                ((a - origin.rows.start) / s) as usize,
                ((b - origin.cols.start) / s) as usize,
            )
        })
    }

    /// The value at cell (a, b): `None` if it is not computed (or no level-0 tile holds it),
    /// `Some(None)` if the cell is not a position.
    pub fn get(&self, a: u64, b: u64) -> Option<Option<u32>> {
        let key = TileKey::of_cell(a, b);
        let t = self.tile(key)?;
        let v = t.value_key((a % TILE) as usize, (b % TILE) as usize);
        value_of_key(v)
    }

    /// A reader that remembers the last tile it looked up.
    pub fn reader(&self) -> TileReader<'_> {
        TileReader {
            store: self,
            last: Cell::new(None),
        }
    }
}

/// A level-0 key of [`KeyRule::Value`] as a value (see [`TileStore::get`]).
fn value_of_key(v: u32) -> Option<Option<u32>> {
    match v {
        NOT_COMPUTED => None,
        NO_POSITION => Some(None),
        v => Some(Some(v)),
    }
}

/// Reads cells of level-0 tiles through a one-tile cache.
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
                let t = self.store.tile(key);
                self.last.set(Some((key, t)));
                t
            }
        };
        value_of_key(tile?.value_key((a % TILE) as usize, (b % TILE) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::tiles::combine;

    fn tile_of(f: impl Fn(usize, usize) -> u32) -> Tile {
        let mut t = Tile::empty(false);
        for i in 0..TILE as usize {
            for j in 0..TILE as usize {
                let k = f(i, j);
                t.keys[i * TILE as usize + j] = k;
                if k != NOT_COMPUTED {
                    t.done += 1;
                }
            }
        }
        t
    }

    /// A level-0 tile pools into every ancestor, as the least key of each block; a second tile
    /// fills the rest of its parent's quadrant without changing what was there.
    #[test]
    fn tiles_pool_upwards_and_merge() {
        let mut store = TileStore::new(u64::MAX);
        let f = |i: usize, j: usize| ((i * 7 + j * 13) % 23) as u32;
        let k = TileKey {
            level: 0,
            row: 1,
            col: 0,
        };
        store.insert(k, &tile_of(|i, j| if i < 100 { f(i, j) } else { NOT_COMPUTED }));
        // level 1 tile (0, 0): quadrant rows 128.., columns 0..
        for (level, a, b) in [(1u8, 256u64, 0u64), (1, 300, 40), (3, 256, 8), (2, 340, 200)] {
            let s = 1u64 << level;
            let (a0, b0) = (a / s * s, b / s * s);
            let mut want = NO_POSITION;
            for x in a0..a0 + s {
                for y in b0..b0 + s {
                    let (i, j) = ((x - 256) as usize, y as usize);
                    want = combine(want, if i < 100 { f(i, j) } else { NOT_COMPUTED });
                }
            }
            assert_eq!(store.key(level, a, b), Some(want), "level {level} at ({a}, {b})");
        }
        assert_eq!(store.get(256 + 3, 4), Some(Some(f(3, 4))));
        assert_eq!(store.get(256 + 120, 4), None, "not computed");
        // the rest of the tile arrives: the ancestors complete, nothing computed changes
        let g = store.generation();
        store.insert(k, &tile_of(|i, j| if i >= 100 { f(i, j) } else { 99 }));
        assert!(store.generation() > g);
        assert_eq!(store.get(256 + 3, 4), Some(Some(f(3, 4))));
        assert_eq!(store.get(256 + 120, 4), Some(Some(f(120, 4))));
        assert!(store.tile(k).unwrap().is_complete());
        let want = (0..32).flat_map(|i| (0..32).map(move |j| f(i, j))).min().unwrap();
        assert_eq!(store.key(5, 256, 0), Some(want), "five levels up");
        assert_eq!(store.key(6, 256, 0), None, "not pooled farther");
        assert_eq!(
            store.key(1, 256 + 200, 64),
            Some((0..4).map(|d| f(200 + d / 2, 64 + d % 2)).min().unwrap())
        );
    }

    /// Another choice of the pooled pixel keeps the level-0 tiles (the same under each) and
    /// pools them upwards again by the new rule; a rule whose keys are not the values forgets
    /// them.
    #[test]
    fn a_new_pooling_keeps_the_cells() {
        let f = |i: usize, j: usize| ((i * 5 + j * 11) % 17) as u32;
        let k = TileKey {
            level: 0,
            row: 0,
            col: 1,
        };
        let mut store = TileStore::new(u64::MAX);
        store.insert(k, &tile_of(f));
        let coarse = |store: &TileStore| store.key(3, 16, TILE + 8);
        let block = (16..24).flat_map(|i| (8..16).map(move |j| f(i, j)));
        assert_eq!(coarse(&store), block.clone().min());
        let epoch = store.epoch();
        store.set_rule(KeyRule::Greatest);
        assert!(store.epoch() > epoch, "the coarse tiles changed");
        assert_eq!(store.get(20, TILE + 9), Some(Some(f(20, 9))), "the cells stay");
        assert_eq!(coarse(&store), block.clone().max(), "pooled again, by the greatest");
        store.set_rule(KeyRule::MostCommon);
        assert!(store.tile(k).is_some_and(Tile::is_complete));
        assert_eq!(store.len(), 1, "a most common value is not pooled from keys");
        store.set_rule(KeyRule::Residue(3));
        assert!(store.is_empty(), "keys of residues are not the values");
    }

    #[test]
    fn the_store_evicts_the_least_recently_used_tiles_but_not_those_in_view() {
        let t = tile_of(|_, _| 1);
        let k = |row, col| TileKey { level: 0, row, col };
        let mut store = TileStore::new(u64::MAX);
        for key in [k(0, 0), k(0, 2), k(2, 0)] {
            store.insert(key, &t);
        }
        // room for one tile more: (2, 2) comes with a new parent, so one tile must go
        let mut small = TileStore::new(store.bytes() + t.bytes());
        for key in [k(0, 0), k(0, 2), k(2, 0)] {
            small.insert(key, &t);
        }
        small.tick();
        small.touch(&[k(0, 0)]);
        small.tick();
        small.touch(&[k(2, 0)]);
        assert_eq!(small.insert(k(2, 2), &t), 1);
        assert!(!small.contains(k(0, 2)), "the least recently used goes first");
        assert!(small.contains(k(0, 0)) && small.contains(k(2, 0)) && small.contains(k(2, 2)));
        // everything in the current frame: nothing more is evicted, the store goes over its cap
        small.touch(&[k(0, 0), k(2, 0), k(2, 2)]);
        assert!(!small.has_room_for(10 * t.bytes()));
        assert_eq!(small.get(2 * TILE + 5, 5), Some(Some(1)));
        assert_eq!(small.get(3 * TILE, 0), None);
    }
}
