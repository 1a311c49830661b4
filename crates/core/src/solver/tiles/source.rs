//! The worker's side of the map: a [`TileSource`] computes the cells of a region the way its
//! ruleset allows honestly, in stages, so tiles can be sent while the rest is computed:
//! - rulesets whose every cell has a closed form ([`CellForm`]) compute the region alone, a
//!   band of rows at a time on every core, anywhere in the plane (`DirectBand`);
//! - symmetric two-heap rulesets with a fast fill grow one triangle row by row ([`Growing`]);
//!   a stage is a band of new rows, every cell (a, b) with max(a, b) in it final;
//! - slices of games on more heaps (and rulesets without a fast fill) search each cell with
//!   one memoised [`Search`], row by row through the region, keeping the values found;
//! - the rest (Fibonacci Nim, sums) fill a rectangle from the origin, refilled larger when a
//!   region lies outside it;
//! - a map of outcomes alone of collections of a misère octal game (a slice such as `_,_`)
//!   reads each cell off the game's misère quotient, searching only the cells past its reach.
//!
//! A lane of the worker keeps its source between jobs, so each job continues where the last
//! one stopped and a pan back costs nothing.

use std::collections::HashMap;
use std::ops::Range;
use std::time::{Duration, Instant};

use super::CellRect;
use crate::game::prediction::Prediction;
use crate::game::rules::one_heap::OctalCode;
use crate::game::{Cell, Layout, Presentation, Ruleset, Shape};
use crate::solver::control::{Control, SolveError};
use crate::solver::grid::{self, CellForm, Grid, Growing, NONE, SATURATED};
use crate::solver::misere_quotient::{self, Quotient};
use crate::solver::search::Search;

/// How long a stage of a fill runs before its cells are handed on (to be pooled and sent).
const STAGE: Duration = Duration::from_millis(120);
/// Most cells of a band of a map computed from its closed form (8 bytes each).
const DIRECT_BAND_CELLS: u64 = 1 << 22;

/// What a stage of [`TileSource::fill`] finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// A symmetric source: every cell (a, b) with max(a, b) in the range is final.
    Triangle(Range<u64>),
    /// Every cell of the region in these rows is final.
    Rows(Range<u64>),
}

/// The cells of one slice (or plain map) found by a memoised search, kept by chunks of 64×64.
struct SearchPlane {
    search: Search,
    chunks: HashMap<(u64, u64), Box<[u32]>>,
}

/// Marks a cell of a [`SearchPlane`] not searched yet.
const UNSEARCHED: u32 = NONE - 1;
const CHUNK: u64 = 64;

impl SearchPlane {
    fn get(&self, a: u64, b: u64) -> u32 {
        self.chunks
            .get(&(a / CHUNK, b / CHUNK))
            .map_or(UNSEARCHED, |c| c[((a % CHUNK) * CHUNK + b % CHUNK) as usize])
    }

    fn bytes(&self) -> u64 {
        self.search.bytes() + self.chunks.len() as u64 * (CHUNK * CHUNK * 4 + 64)
    }

    fn set(&mut self, a: u64, b: u64, v: u32) {
        let chunk = self
            .chunks
            .entry((a / CHUNK, b / CHUNK))
            .or_insert_with(|| vec![UNSEARCHED; (CHUNK * CHUNK) as usize].into_boxed_slice());
        chunk[((a % CHUNK) * CHUNK + b % CHUNK) as usize] = v;
    }
}

/// The cells of a band of rows of a region, computed from their closed form; cells outside it
/// are computed when read (one formula each).
struct DirectBand {
    form: CellForm,
    rows: Range<u64>,
    cols: Range<u64>,
    /// Exact values (8 bytes a cell: far from the origin they pass 32 bits), `WIDE_NONE` off
    /// the positions.
    values: Vec<u64>,
}

/// Marks a cell of a [`DirectBand`] that is not a position.
const WIDE_NONE: u64 = u64::MAX;

impl DirectBand {
    #[inline]
    fn get(&self, a: u64, b: u64) -> u32 {
        narrow(self.get_wide(a, b))
    }

    /// The exact value at (a, b), [`WIDE_NONE`] if it is not a position.
    #[inline]
    fn get_wide(&self, a: u64, b: u64) -> u64 {
        if self.rows.contains(&a) && self.cols.contains(&b) {
            let w = self.cols.end - self.cols.start;
            return self.values[((a - self.rows.start) * w + (b - self.cols.start)) as usize];
        }
        self.form.value(a, b).unwrap_or(WIDE_NONE)
    }

    /// Computes rows `rows` over `cols`, rows on every core.
    fn compute(&mut self, rows: Range<u64>, cols: Range<u64>, control: &Control) -> Result<(), SolveError> {
        use rayon::prelude::*;
        let w = (cols.end - cols.start) as usize;
        self.values.clear();
        self.values.resize((rows.end - rows.start) as usize * w, WIDE_NONE);
        let form = self.form;
        grid::direct::on_threads(control, || {
            self.values
                .par_chunks_mut(w.max(1))
                .enumerate()
                .try_for_each(|(i, row)| {
                    control.check()?;
                    let a = rows.start + i as u64;
                    for (v, b) in row.iter_mut().zip(cols.clone()) {
                        *v = form.value(a, b).unwrap_or(WIDE_NONE);
                    }
                    control.add_done(w as u64);
                    Ok::<(), SolveError>(())
                })
        })?;
        self.rows = rows;
        self.cols = cols;
        Ok(())
    }
}

/// An exact value as a map value: [`NONE`] off the positions, values past 32 bits given as
/// [`SATURATED`] (the top of the colour scale; [`TileSource::read_row_wide`] has them exactly).
#[inline]
fn narrow(v: u64) -> u32 {
    if v == WIDE_NONE {
        NONE
    } else {
        v.min(u64::from(SATURATED)) as u32
    }
}

/// The outcomes of the collections of a misère octal game by its misère quotient, grown to the
/// largest heap a region needs; cells past the quotient's reach are searched.
struct QuotientPlane {
    code: OctalCode,
    quotient: Option<Quotient>,
    /// The least heap bound whose quotient was past reach (not tried again at or past it).
    past_reach: Option<u16>,
    search: SearchPlane,
}

/// The octal code of a misère octal game, whose collections of heaps its quotient answers.
fn misere_octal(ruleset: &Ruleset) -> Option<&OctalCode> {
    match ruleset {
        Ruleset::Misere(inner) => match &**inner {
            Ruleset::Octal(code) => Some(code),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a map of outcomes alone of `ruleset` under `layout` reads them off a misère
/// quotient: the collections of a misère octal game (a slice such as `_,_`).
pub fn outcomes_by_quotient(ruleset: &Ruleset, layout: &Layout) -> bool {
    misere_octal(ruleset).is_some() && Presentation::of(ruleset, layout).why_no_map(ruleset).is_none()
}

/// The largest heap of the collection at any cell of `region` under `layout`.
fn largest_heap(layout: &Layout, region: &CellRect) -> u64 {
    let free = region.rows.end.max(region.cols.end).saturating_sub(1);
    match layout {
        Layout::Slice(t) => t.iter().flatten().copied().fold(free, u64::max),
        Layout::Plain => free,
    }
}

enum TileMethod {
    /// The ruleset has no map under this layout (see [`Presentation`]): why.
    NoMap(String),
    Quotient(Box<QuotientPlane>),
    Direct(Box<DirectBand>),
    Growing(Box<Growing>),
    Search(Box<SearchPlane>),
    Whole(Option<Grid>),
}

/// Computes the cells of one ruleset and layout; a worker lane keeps it between jobs.
pub struct TileSource {
    ruleset: Ruleset,
    layout: Layout,
    method: TileMethod,
}

impl TileSource {
    /// The source of a map of values (or outcomes read off the values).
    pub fn new(ruleset: &Ruleset, layout: &Layout) -> Self {
        Self::new_for(ruleset, layout, false)
    }

    /// The source of a map of values or, with `outcomes`, of a map that shows outcomes alone:
    /// that one computes the outcomes' own closed form where a ruleset has one and its values
    /// have none (Wythoff's P-positions, anywhere in the plane), 0 at a P-position and 1
    /// elsewhere.
    pub fn new_for(ruleset: &Ruleset, layout: &Layout, outcomes: bool) -> Self {
        let growing = match layout {
            Layout::Plain => Growing::new(ruleset),
            Layout::Slice(_) => None,
        };
        let no_map = Presentation::of(ruleset, layout).why_no_map(ruleset);
        let direct = if outcomes {
            CellForm::outcome_of(ruleset, layout)
        } else {
            CellForm::of(ruleset, layout)
        };
        let by_quotient = outcomes.then(|| misere_octal(ruleset)).flatten();
        let method = match (no_map, growing, direct, by_quotient) {
            (None, _, _, Some(code)) => TileMethod::Quotient(Box::new(QuotientPlane {
                code: code.clone(),
                quotient: None,
                past_reach: None,
                search: SearchPlane {
                    search: Search::new(ruleset.clone()),
                    chunks: HashMap::new(),
                },
            })),
            (Some(why), _, _, _) => TileMethod::NoMap(why),
            (None, _, Some(form), _) => TileMethod::Direct(Box::new(DirectBand {
                form,
                rows: 0..0,
                cols: 0..0,
                values: Vec::new(),
            })),
            (None, Some(g), None, _) => TileMethod::Growing(Box::new(g)),
            (None, None, None, _)
                if *layout == Layout::Plain
                    && (grid::has_fast_fill(ruleset) || (ruleset.shape() == Shape::Sum && !ruleset.has_misere())) =>
            {
                TileMethod::Whole(None)
            }
            (None, None, None, _) => TileMethod::Search(Box::new(SearchPlane {
                search: Search::new(ruleset.clone()),
                chunks: HashMap::new(),
            })),
        };
        Self {
            ruleset: ruleset.clone(),
            layout: layout.clone(),
            method,
        }
    }

    /// Memory kept between jobs: the grown map, the searched cells and the search's memo, or
    /// the whole rectangle (a worker lane accounts it against the budget).
    pub fn bytes(&self) -> u64 {
        match &self.method {
            TileMethod::NoMap(_) => 0,
            TileMethod::Direct(d) => d.values.len() as u64 * 8,
            TileMethod::Growing(g) => g.held_bytes(),
            TileMethod::Search(s) => s.bytes(),
            // the quotient: its table of products, 4 bytes each
            TileMethod::Quotient(q) => {
                q.search.bytes() + q.quotient.as_ref().map_or(0, |q| (q.size() as u64).pow(2) * 4)
            }
            TileMethod::Whole(g) => g.as_ref().map_or(0, Grid::bytes),
        }
    }

    /// Whether this source computes `ruleset` under `layout`, for a map of outcomes alone if
    /// `outcomes` (a source of values serves it too, unless the outcomes have a form of their
    /// own; a source of outcomes alone serves nothing else).
    pub fn serves(&self, ruleset: &Ruleset, layout: &Layout, outcomes: bool) -> bool {
        let own_form = outcomes
            && (CellForm::outcome_of(ruleset, layout).is_some_and(CellForm::outcome_only)
                || outcomes_by_quotient(ruleset, layout));
        self.ruleset == *ruleset && self.layout == *layout && self.outcome_only() == own_form
    }

    /// Whether the source's numbers are outcomes alone (0: P, 1: N), not values.
    pub fn outcome_only(&self) -> bool {
        match &self.method {
            TileMethod::Direct(d) => d.form.outcome_only(),
            TileMethod::Quotient(_) => true,
            _ => false,
        }
    }

    /// The largest heap the misère quotient answers every collection up to (a quotient source).
    fn quotient_reach(&self) -> Option<u64> {
        match &self.method {
            TileMethod::Quotient(q) => q.quotient.as_ref().map(|q| u64::from(q.heaps())),
            _ => None,
        }
    }

    /// Whether G(a, b) = G(b, a) is used: the source holds only the triangle b ≤ a.
    pub fn is_symmetric(&self) -> bool {
        matches!(self.method, TileMethod::Growing(_))
    }

    /// The value at (a, b), `NONE` if it is not a position; the cell must be final (inside a
    /// region filled, in a stage already reported).
    #[inline]
    pub fn value(&self, a: u64, b: u64) -> u32 {
        match &self.method {
            TileMethod::Direct(d) => d.get(a, b),
            TileMethod::Growing(g) => g.raw(a, b),
            TileMethod::Search(s) => s.get(a, b),
            TileMethod::Quotient(q) => {
                let p = self.layout.position(&self.ruleset, Cell::new(a, b));
                match (&q.quotient, p) {
                    (Some(quotient), crate::game::Position::Heaps(h)) => match quotient.outcome(&h) {
                        Some(o) => u32::from(o == crate::game::Outcome::N),
                        None => q.search.get(a, b),
                    },
                    _ => q.search.get(a, b),
                }
            }
            TileMethod::Whole(Some(g)) => g.get(a, b).unwrap_or(NONE),
            TileMethod::Whole(None) | TileMethod::NoMap(_) => NONE,
        }
    }

    /// The values of row `a` over `cols`, as [`TileSource::value`] gives them.
    pub fn read_row(&self, a: u64, cols: Range<u64>, out: &mut Vec<u32>) {
        out.clear();
        match &self.method {
            TileMethod::Growing(g) => out.extend(cols.map(|b| g.raw(a, b))),
            _ => out.extend(cols.map(|b| self.value(a, b))),
        }
    }

    /// The exact values of row `a` over `cols` (`u64::MAX`: not a position): those of a map
    /// computed from its closed form pass 32 bits far from the origin, and a colour by residue
    /// needs them whole.
    pub fn read_row_wide(&self, a: u64, cols: Range<u64>, out: &mut Vec<u64>) {
        out.clear();
        match &self.method {
            // the band computed: one slice of it
            TileMethod::Direct(d) if d.rows.contains(&a) && d.cols.start <= cols.start && cols.end <= d.cols.end => {
                let w = d.cols.end - d.cols.start;
                let start = ((a - d.rows.start) * w + (cols.start - d.cols.start)) as usize;
                out.extend_from_slice(&d.values[start..start + (cols.end - cols.start) as usize]);
            }
            TileMethod::Direct(d) => out.extend(cols.map(|b| d.get_wide(a, b))),
            // the triangle's row below the diagonal: one slice of the plane
            TileMethod::Growing(g) if cols.end <= a + 1 => g.row_wide_into(a, cols, out),
            _ => out.extend(cols.map(|b| match self.value(a, b) {
                NONE => WIDE_NONE,
                v => u64::from(v),
            })),
        }
    }

    /// Computes every cell of `region`, calling `stage` each time a part is final (about every
    /// tenth of a second, and at the end); cells computed by earlier fills are reported in the
    /// first stage.
    pub fn fill(
        &mut self,
        region: &CellRect,
        control: &Control,
        stage: &mut dyn FnMut(&TileSource, Stage) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        if region.is_empty() {
            return Ok(());
        }
        match &mut self.method {
            TileMethod::NoMap(why) => Err(SolveError::Unsupported(why.clone())),
            TileMethod::Direct(_) => {
                // bands of about STAGE each, sized by the cells per second of the last one
                let width = region.cols.end - region.cols.start;
                control.reserve("a band of the map's cells", DIRECT_BAND_CELLS.min(region.len()) * 8)?;
                let mut start = region.rows.start;
                let mut rows = (4096 / width).max(1);
                while start < region.rows.end {
                    let end = start.saturating_add(rows).min(region.rows.end);
                    let t = Instant::now();
                    let TileMethod::Direct(d) = &mut self.method else {
                        unreachable!()
                    };
                    d.compute(start..end, region.cols.clone(), control)?;
                    let rate = ((end - start) * width) as f64 / t.elapsed().as_secs_f64().max(1e-4);
                    stage(self, Stage::Rows(start..end))?;
                    start = end;
                    let cells = (rate * STAGE.as_secs_f64()).clamp(4096.0, DIRECT_BAND_CELLS as f64) as u64;
                    rows = (cells / width).max(1);
                }
                Ok(())
            }
            TileMethod::Growing(g) => {
                let target = region.rows.end.max(region.cols.end);
                // refused at once if the whole growth is over the budget, not step by step
                control.reserve(format!("the map up to row {target}"), g.bytes_for(target))?;
                let mut done = g.rows().min(target);
                if done > 0 {
                    stage(self, Stage::Triangle(0..done))?;
                }
                // Stages of about STAGE each: a row costs more the farther it is (it holds more
                // cells), so the next stage's rows follow from the cells per second of the last.
                let tri = |n: u64| n * (n + 1) / 2;
                let mut next = (done + 256).min(target);
                while done < target {
                    let start = Instant::now();
                    let TileMethod::Growing(g) = &mut self.method else {
                        unreachable!()
                    };
                    g.grow_to(next, control)?;
                    let rate = (tri(next) - tri(done)) as f64 / start.elapsed().as_secs_f64().max(1e-4);
                    stage(self, Stage::Triangle(done..next))?;
                    done = next;
                    let cells = tri(done) + (rate * STAGE.as_secs_f64()) as u64;
                    next = ((2.0 * cells as f64).sqrt() as u64)
                        .clamp(done + 64, target.max(done + 64))
                        .min(target);
                }
                Ok(())
            }
            TileMethod::Search(_) => self.fill_by_search(region, control, stage),
            TileMethod::Quotient(q) => {
                let needed = largest_heap(&self.layout, region);
                let known = q.quotient.as_ref().map_or(0, |q| u64::from(q.heaps()));
                if let Ok(bound) = u16::try_from(needed)
                    && needed > known
                    && bound <= crate::solver::evaluate::QUOTIENT_HEAPS
                    && q.past_reach.is_none_or(|p| bound < p)
                {
                    // its heaps are not the map's cells: the quotient counts its own progress
                    let limited = control
                        .apart()
                        .with_budget_at_most(crate::solver::budget::MISERE_QUOTIENT);
                    // as far as it goes: the cells of the heaps below where it stopped from it
                    let (quotient, stopped) = misere_quotient::compute_as_far_as(&q.code, bound, &limited)?;
                    if stopped.is_some() {
                        let failed = quotient.heaps() + 1;
                        q.past_reach = Some(q.past_reach.map_or(failed, |p| p.min(failed)));
                    }
                    if u64::from(quotient.heaps()) > known {
                        q.quotient = Some(quotient);
                    }
                }
                // the cells past the quotient's reach, searched
                self.fill_by_search(region, control, stage)
            }
            TileMethod::Whole(whole) => {
                let (r, c) = (region.rows.end, region.cols.end);
                if !whole.as_ref().is_some_and(|g| g.rows.end >= r && g.cols.end >= c) {
                    let (r0, c0) = whole.as_ref().map_or((0, 0), |g| (g.rows.end, g.cols.end));
                    *whole = None; // free the old rectangle before filling the larger one
                    *whole = Some(grid::grid(
                        &self.ruleset,
                        &self.layout,
                        0..r.max(r0),
                        0..c.max(c0),
                        control,
                    )?);
                }
                stage(self, Stage::Rows(region.rows.clone()))
            }
        }
    }
}

impl TileSource {
    /// Searches the cells of `region` not searched yet (nor answered by a misère quotient),
    /// row by row, handing on a stage about every [`STAGE`].
    fn fill_by_search(
        &mut self,
        region: &CellRect,
        control: &Control,
        stage: &mut dyn FnMut(&TileSource, Stage) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let (ruleset, layout) = (self.ruleset.clone(), self.layout.clone());
        let reach = self.quotient_reach();
        let fixed = largest_heap(&layout, &CellRect::new(0..1, 0..1));
        let mut reported = region.rows.start;
        let mut last = Instant::now();
        for a in region.rows.clone() {
            let plane = match &mut self.method {
                TileMethod::Search(plane) => plane,
                TileMethod::Quotient(q) => &mut q.search,
                _ => unreachable!(),
            };
            for b in region.cols.clone() {
                control.check()?;
                if plane.get(a, b) != UNSEARCHED || reach.is_some_and(|r| a.max(b).max(fixed) <= r) {
                    continue;
                }
                let p = layout.position(&ruleset, Cell::new(a, b));
                let v = match ruleset.check_position(&p) {
                    Ok(()) => plane.search.value(&p, control)?,
                    Err(_) => NONE,
                };
                plane.set(a, b, v);
            }
            control.add_done(region.cols.end - region.cols.start);
            if last.elapsed() > STAGE {
                stage(self, Stage::Rows(reported..a + 1))?;
                reported = a + 1;
                last = Instant::now();
            }
        }
        if reported < region.rows.end {
            stage(self, Stage::Rows(reported..region.rows.end))?;
        }
        Ok(())
    }
}

/// What the difference mode compares a source with.
pub enum Compare<'a> {
    /// No comparison.
    Nothing,
    /// A second ruleset's source, filled over the same region first.
    Source(&'a TileSource),
    /// A theorem's predicted P-positions: 0 where it predicts P, 1 where N.
    Theorem(Prediction),
}

impl Compare<'_> {
    /// The compared value at (a, b): `None` where there is nothing to compare with.
    #[inline]
    pub fn value(&self, a: u64, b: u64) -> Option<u32> {
        match self {
            Compare::Nothing => None,
            Compare::Source(s) => Some(s.value(a, b)).filter(|&v| v != NONE),
            Compare::Theorem(p) => p.is_p(a, b).map(|p| u32::from(!p)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    /// The map of collections {a, b} of misère 0.6, whose quotient stops at heap 16: the cells
    /// of heaps up to 16 from the quotient, the rest searched, every outcome the plain search's.
    #[test]
    fn collections_past_the_quotients_reach_are_searched() {
        let r: Ruleset = "misere(octal(0.6))".parse().unwrap();
        let layout = Layout::parse_slice("_,_").unwrap();
        assert!(outcomes_by_quotient(&r, &layout));
        let mut source = TileSource::new_for(&r, &layout, true);
        assert!(source.outcome_only() && source.serves(&r, &layout, true));
        let region = CellRect::new(0..20, 0..20);
        source.fill(&region, &Control::new(), &mut |_, _| Ok(())).unwrap();
        assert_eq!(source.quotient_reach(), Some(16), "grown as far as it goes");
        let mut search = Search::plain(r.clone());
        for a in 0..20 {
            for b in 0..20 {
                let g = search.value(&Position::Heaps(vec![a, b]), &Control::new()).unwrap();
                assert_eq!(source.value(a, b) == 0, g == 0, "({a}, {b})");
            }
        }
        // the values mode is searched
        assert!(!TileSource::new_for(&r, &layout, false).outcome_only());
    }
}
