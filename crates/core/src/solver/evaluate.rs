//! The one entry point for values of single positions and their options: picks the fastest
//! exact method for each position and keeps what it computed for the next request.
//!
//! In order: a push compound after its push is its successor; a sum, and a collection of heaps
//! of a heap game (Nim, octal, subtraction and divisor games), is a disjunctive sum whose value
//! is the nim-sum of its components' (Sprague–Grundy); a closed form of
//! [`super::closed_form`] answers where the theory gives the value; one heap is read off its
//! sequence (certified periods answer heaps of any size); two heaps off a filled map; Cram boards
//! go to their solvers; everything else to the memoised search, unless its bound does not fit
//! the budget and a closed form gives the outcome. [`Answer`] says which.

use std::collections::{BTreeMap, HashMap};

use super::closed_form::{Known, closed_form};
use super::control::{Control, SolveError};
use super::cram::CramSolver;
use super::cram::octal::column_runs_value;
use super::cram::push::{PushCramSolver, post_push_value};
use super::grid::{self, Grid};
use super::loopy::LoopyCache;
use super::misere_quotient::Quotient;
use super::route::{self, Route};
use super::search::Search;
use super::sequence::Computed;
use crate::game::catalog::Dominoes;
use crate::game::quote::quoted;
use crate::game::rules::cram_board::Board;
use crate::game::rules::one_heap::OctalCode;
use crate::game::{Layout, Outcome, Position, Ruleset};

/// Values of one-heap sequences computed at first to answer a heap beyond them (a certified
/// period answers every later heap; without one, the sequence is extended to the heap, within
/// the budget).
const SEQUENCE_LEN: u64 = 1 << 20;
/// The work (splits looked at, about a nanosecond each) a search for a period may spend when
/// the values up to the heap cannot be held: 4·10^8, a fraction of a second, four times what
/// the longest period in reach needs (octal(0.16): certified at 2^19 values after 10^8).
const PERIOD_SEARCH_WORK: u64 = 400_000_000;
/// The largest heap a misère octal collection is answered by its misère quotient for: every
/// heap the quotient is computed for (it stops earlier where its growth does, and says so).
pub const QUOTIENT_HEAPS: u16 = super::misere_quotient::MAX_HEAPS;
/// The largest search bound (in bytes, by [`search::memory_bound`], which counts every
/// position as the general map keeps it) under which a misère octal collection is searched
/// (for its misère Grundy value) rather than answered by its quotient.
const GRUNDY_SEARCH_BYTES: u64 = 16 << 20;
/// The search tried before a misère quotient is grown to a larger heap (it stops at this
/// bound): 512 KiB of the packed memo (about the collections 4 MiB of the general map held), a
/// few tenths of a second when it does not fit.
const FIRST_SEARCH_BYTES: u64 = 512 << 10;
/// The most memory a misère quotient computed to answer a position may use.
const QUOTIENT_BYTES: u64 = super::budget::MISERE_QUOTIENT;

/// Caches of regions, sequences and searches, per ruleset, and the Cram solvers with their
/// transposition tables. [`Evaluator::cache_bytes`] is what they hold; [`Evaluator::trim`]
/// gives memory back, least recently used first (a worker lane keeps its caches within the
/// budget this way).
pub struct Evaluator {
    grids: HashMap<Ruleset, Grid>,
    sequences: HashMap<Ruleset, Computed>,
    searches: HashMap<Ruleset, Search>,
    /// Misère quotients of octal games, by code (each for heaps up to its bound).
    quotients: HashMap<OctalCode, Quotient>,
    /// By code, the least heap bound whose quotient was past reach (its limits or the
    /// budget): not tried again for that bound or a larger one, so the options of a position
    /// (`moves`) or the inspector's repeated questions do not each spend seconds failing.
    quotients_past_reach: HashMap<OctalCode, u16>,
    /// The last exploration of each game that loops.
    loopy: LoopyCache,
    cram: CramSolver,
    push_cram: PushCramSolver,
    /// The most each Cram transposition table may grow to.
    cram_table_bytes: u64,
    /// When each ruleset's caches, and each Cram table, were last used (a tick of `clock`).
    used: HashMap<Ruleset, u64>,
    cram_used: u64,
    push_cram_used: u64,
    clock: u64,
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::with_cram_table_bytes(super::cram::DEFAULT_TABLE_BYTES)
    }
}

/// `push-cram` as the expression language spells it.
fn is_push_cram(r: &Ruleset) -> bool {
    r.cram_game() == Some(crate::game::cram_game::CramGame::PushCram)
}

/// Vertical-only Cram: the nim-sum over columns of 0.07 on each maximal vertical run, i.e. the
/// post-push value of the transposed board.
fn vertical_value(b: &Board) -> u32 {
    column_runs_value(b.empty_mask(), b.rows(), b.cols())
}

/// Whether a collection of heaps of `ruleset` is the disjunctive sum of its single heaps (so
/// its value is their nim-sum): the leaf heap games under normal play. Not Zeruclid, Common
/// Divisor Nim or the Euclid family, whose moves depend on all heaps at once, nor misère play.
pub fn is_heap_sum(ruleset: &Ruleset) -> bool {
    match ruleset {
        Ruleset::Nim | Ruleset::Octal(_) | Ruleset::Subtraction(_) | Ruleset::Tag(_) | Ruleset::Divisor => true,
        Ruleset::Typed(rule) => rule.arity() == 1,
        _ => false,
    }
}

const SUM_RULE: &str = "Sprague–Grundy: the nim-sum of the components' values";

/// The nim-sum of two components' answers.
fn combine(a: Answer, b: Answer, what: &dyn Fn() -> String) -> Result<Answer, SolveError> {
    let method = if a.method == ValueMethod::ClosedForm && b.method == ValueMethod::ClosedForm {
        ValueMethod::ClosedForm
    } else {
        ValueMethod::Search
    };
    let by = if a.by == b.by {
        a.by.clone()
    } else {
        SUM_RULE.to_string()
    };
    if a.infinite.is_some() || b.infinite.is_some() {
        // a game that loops in a component: Smith's rules
        let method = ValueMethod::Loopy;
        let by = "Smith's rules: the sum of the components' values (∞(A) + n = ∞(A ⊕ n))".to_string();
        if let (Some(x), Some(y)) = (a.gamma(), b.gamma()) {
            return Ok(Answer::of_gamma(x.sum(&y), method, by));
        }
    }
    match (a.grundy, b.grundy) {
        (Some(x), Some(y)) => Ok(Answer::value(x ^ y, method, by)),
        // a P-component leaves the other's outcome
        (Some(0), None) => Ok(Answer { method, by, ..b }),
        (None, Some(0)) => Ok(Answer { method, by, ..a }),
        _ => Err(SolveError::Unsupported(format!(
            "only the outcome of a component of {} is known, not its value, so the sum's value is not known either",
            what()
        ))),
    }
}

impl Evaluator {
    /// An evaluator with empty caches and the default table sizes.
    pub fn new() -> Self {
        Self::default()
    }

    /// An evaluator whose Cram and Push Cram transposition tables may each grow to `bytes`.
    pub fn with_cram_table_bytes(bytes: u64) -> Self {
        Self {
            grids: HashMap::new(),
            sequences: HashMap::new(),
            searches: HashMap::new(),
            quotients: HashMap::new(),
            quotients_past_reach: HashMap::new(),
            loopy: LoopyCache::default(),
            cram: CramSolver::with_table_bytes(bytes),
            push_cram: PushCramSolver::with_table_bytes(bytes),
            cram_table_bytes: bytes,
            used: HashMap::new(),
            cram_used: 0,
            push_cram_used: 0,
            clock: 0,
        }
    }

    /// Memory held by the caches: maps, sequences, search memos, and the Cram tables once
    /// allocated (counted at the size they may grow to).
    pub fn cache_bytes(&self) -> u64 {
        let per_ruleset = |r: &Ruleset| {
            self.grids.get(r).map_or(0, Grid::bytes)
                + self.sequences.get(r).map_or(0, Computed::bytes)
                + self.searches.get(r).map_or(0, Search::bytes)
        };
        let rulesets: u64 = self.used.keys().map(per_ruleset).sum();
        rulesets + self.loopy.bytes() + self.cram_bytes() + self.push_cram_bytes()
    }

    fn cram_bytes(&self) -> u64 {
        if self.cram.stats().table_capacity > 0 {
            self.cram_table_bytes
        } else {
            0
        }
    }

    fn push_cram_bytes(&self) -> u64 {
        if self.push_cram.table_len() > 0 || self.push_cram.expanded() > 0 {
            self.cram_table_bytes
        } else {
            0
        }
    }

    /// Drops cached maps, sequences, searches and Cram tables, least recently used first, until
    /// [`Evaluator::cache_bytes`] is at most `limit`.
    pub fn trim(&mut self, limit: u64) {
        if self.cache_bytes() > limit {
            // explorations of games that loop go first: one question's worth each
            self.loopy = LoopyCache::default();
        }
        while self.cache_bytes() > limit {
            // the oldest of the rulesets' caches and the two allocated Cram tables
            let oldest = self.used.iter().min_by_key(|&(_, &t)| t).map(|(r, &t)| (r.clone(), t));
            let cram = (self.cram_bytes() > 0).then_some(self.cram_used);
            let push = (self.push_cram_bytes() > 0).then_some(self.push_cram_used);
            let first = [oldest.as_ref().map(|o| o.1), cram, push].into_iter().flatten().min();
            match first {
                None => break,
                Some(t) if cram == Some(t) => self.cram.clear(),
                Some(t) if push == Some(t) => self.push_cram = PushCramSolver::with_table_bytes(self.cram_table_bytes),
                Some(_) => {
                    if let Some((r, _)) = oldest {
                        self.grids.remove(&r);
                        self.sequences.remove(&r);
                        self.searches.remove(&r);
                        self.used.remove(&r);
                    }
                }
            }
        }
    }

    /// Gives back cached memory, least recently used first, so that `needed` more bytes fit
    /// the budget with what stays cached: the caches and the job together keep to the budget.
    fn make_room(&mut self, needed: u64, control: &Control) {
        self.trim(control.memory_budget().saturating_sub(needed));
    }

    /// Marks `ruleset`'s caches as just used (they are evicted last).
    fn touch(&mut self, ruleset: &Ruleset) {
        self.clock += 1;
        match self.used.get_mut(ruleset) {
            Some(t) => *t = self.clock,
            None => {
                self.used.insert(ruleset.clone(), self.clock);
            }
        }
    }

    /// The Grundy value of a legal position `p` of `ruleset` (the misère Grundy value under
    /// misère play: 0 exactly on P-positions), for views that show 32-bit values; a value
    /// known only by its outcome, or past 2^32, is an error that says so.
    pub fn value(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<u32, SolveError> {
        let a = self.answer(ruleset, p, control)?;
        if let Some(g) = a.gamma().filter(|_| a.infinite.is_some()) {
            return Err(SolveError::Unsupported(format!(
                "{} in {ruleset} has the value {g} (the game loops; {}): not a Grundy value",
                quoted(&p.to_string()),
                a.outcome.words()
            )));
        }
        match a.grundy {
            Some(v) => u32::try_from(v).map_err(|_| {
                SolveError::Unsupported(format!(
                    "the value of {} in {ruleset} is {v}, past the 32-bit values shown here (the command line prints it)",
                    quoted(&p.to_string())
                ))
            }),
            None => Err(SolveError::Unsupported(format!(
                "only the outcome of {} in {ruleset} is known ({}, by {}); its value would need a search past the memory budget",
                quoted(&p.to_string()),
                a.outcome, a.by
            ))),
        }
    }

    /// The value of a legal position `p` of `ruleset` as exactly as it can be known within the
    /// budget, with how it was found. A typed rule that equals a built-in ruleset is computed
    /// as it; a game that loops is valued by Smith's theory.
    pub fn answer(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<Answer, SolveError> {
        control.rules_within(|| self.answer_within(ruleset, p, control))
    }

    fn answer_within(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<Answer, SolveError> {
        if let Some(builtin) = super::equivalent::computed(ruleset) {
            let mut a = self
                .answer_within(&builtin, p, control)
                .map_err(|e| e.computed_as(&builtin))?;
            a.by = format!("{} (the rule is {builtin})", a.by);
            return Ok(a);
        }
        if ruleset.has_typed() {
            if let Some(g) = self.loopy.get(ruleset, p) {
                return Ok(Answer::of_gamma(g, ValueMethod::Loopy, LOOPY));
            }
            return match self.answer_finite(ruleset, p, control) {
                Err(SolveError::Loops(cycle)) => {
                    let g = super::loopy::value(ruleset, p, &mut self.loopy, control)?;
                    let by = match cycle.rsplit_once(" (") {
                        Some((_, c)) => format!("{LOOPY}; the game loops: {}", c.trim_end_matches(')')),
                        None => LOOPY.to_string(),
                    };
                    Ok(Answer::of_gamma(g, ValueMethod::Loopy, by))
                }
                a => a,
            };
        }
        self.answer_finite(ruleset, p, control)
    }

    /// [`Evaluator::answer`] of a game played to its end (a cycle found is an error).
    fn answer_finite(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<Answer, SolveError> {
        control.check()?;
        if let Position::Pushed { choice, inner } = p {
            let succ = ruleset.push_successors();
            let s = succ
                .get(*choice as usize)
                .ok_or_else(|| SolveError::Unsupported(format!("{ruleset} has no push number {choice}")))?;
            return self.answer(s, inner, control);
        }
        if let (Ruleset::Sum(ra, rb), Position::Sum(pa, pb)) = (ruleset, p) {
            let a = self.answer(ra, pa, control)?;
            let b = self.answer(rb, pb, control)?;
            return combine(a, b, &|| format!("{ruleset} at {}", quoted(&p.to_string())));
        }
        if let Some(cf) = closed_form(ruleset, p)
            && let Known::Value(v) = cf.known
        {
            return Ok(Answer::value(v, ValueMethod::ClosedForm, cf.by));
        }
        if let (true, Position::Heaps(h)) = (is_heap_sum(ruleset), p)
            && h.len() > 1
        {
            return self.heap_sum(ruleset, h, control);
        }
        if let Some(a) = self.by_quotient(ruleset, p, control)? {
            return Ok(a);
        }
        if let Position::Board(b) = p {
            self.clock += 1;
            let v = match ruleset {
                Ruleset::Cram(Dominoes::Both) => {
                    self.cram_used = self.clock;
                    if self.cram_bytes() == 0 {
                        self.make_room(self.cram_table_bytes, control);
                    }
                    Some(self.cram.value(b, control)?)
                }
                Ruleset::Cram(Dominoes::Horizontal) => Some(post_push_value(b)),
                Ruleset::Cram(Dominoes::Vertical) => Some(vertical_value(b)),
                r if is_push_cram(r) => {
                    self.push_cram_used = self.clock;
                    if self.push_cram_bytes() == 0 {
                        self.make_room(self.cram_table_bytes, control);
                    }
                    Some(self.push_cram.value(b, control)?)
                }
                _ => None,
            };
            if let Some(v) = v {
                return Ok(Answer::searched(v));
            }
        }
        if let Some(a) = self.cached_map(ruleset, p) {
            return Ok(a);
        }
        match route::plan(ruleset, p, control.memory_budget()) {
            Route::Map => {
                if let Some(a) = self.by_map(ruleset, p, control)? {
                    return Ok(a);
                }
            }
            Route::Sequence => {
                if let Position::Heaps(h) = p {
                    match self.by_sequence(ruleset, h[0], control) {
                        // a typed rule that fails (or loops) below the heap: the search from
                        // the heap itself meets only what it reaches, and says where
                        Err(SolveError::Rule(_) | SolveError::Loops(_)) => {}
                        a => return a,
                    }
                }
            }
            Route::Outcome => {
                if let Some(cf) = closed_form(ruleset, p)
                    && let Known::Outcome(o) = cf.known
                {
                    return Ok(Answer {
                        grundy: None,
                        infinite: None,
                        outcome: o,
                        method: ValueMethod::ClosedForm,
                        by: cf.by.to_string(),
                    });
                }
            }
            Route::Search | Route::ClosedForm => {}
        }
        // a position a search met before is answered from its memo: the estimate below (up
        // to 0.7 s for two large heaps) is for a search to come, not for each option of a
        // move tree the search already went through
        if let Some(v) = self.searches.get(ruleset).and_then(|s| s.memoised(p)) {
            self.touch(ruleset);
            return Ok(Answer::searched(v));
        }
        // a search that must outgrow the budget is refused before it starts
        super::cost::admit_search(ruleset, p, control)?;
        self.touch(ruleset);
        // the search counts its own memo against the budget; what the other caches hold is
        // taken off it, and given back if the search needs it
        let own = self.searches.get(ruleset).map_or(0, Search::bytes);
        let others = self.cache_bytes().saturating_sub(own);
        let limited = control.with_budget_at_most(control.memory_budget().saturating_sub(others));
        let search = self
            .searches
            .entry(ruleset.clone())
            .or_insert_with(|| Search::new(ruleset.clone()));
        // a search whose size is bounded shows the positions met against the bounds, where
        // no other part of the job counts its own total
        let staged = control.stage().is_empty()
            && control.progress().1 == 0
            && super::cost::search_stage(ruleset, p).is_some_and(|(stage, total)| {
                control.set_stage(stage);
                control.set_total(total);
                true
            });
        let v = search.value(p, &limited);
        if staged {
            control.set_stage("");
        }
        let v = match v {
            Err(SolveError::OverBudget { .. }) if others > 0 => {
                self.make_room(control.memory_budget(), control);
                self.touch(ruleset);
                self.searches
                    .entry(ruleset.clone())
                    .or_insert_with(|| Search::new(ruleset.clone()))
                    .value(p, control)?
            }
            v => v?,
        };
        Ok(Answer::searched(v))
    }

    /// A collection of heaps of a heap game: the nim-sum of its heaps' values (a pair of equal
    /// heaps cancels).
    fn heap_sum(&mut self, ruleset: &Ruleset, h: &[u64], control: &Control) -> Result<Answer, SolveError> {
        let mut count: BTreeMap<u64, usize> = BTreeMap::new();
        for &x in h {
            *count.entry(x).or_default() += 1;
        }
        let mut total = Answer::value(0, ValueMethod::ClosedForm, SUM_RULE);
        for (x, c) in count {
            let one = self.answer(ruleset, &Position::Heaps(vec![x]), control)?;
            // equal heaps cancel in pairs when their value is a number (n ⊕ n = 0); two
            // infinite values do not (∞(A) + ∞(A) = ∞(∅), a draw), nor do more
            let times = if one.infinite.is_some() { c.min(2) } else { c % 2 };
            for _ in 0..times {
                total = combine(total, one.clone(), &|| {
                    format!("{ruleset} at {}", quoted(&Position::Heaps(h.to_vec()).to_string()))
                })?;
            }
        }
        if total.method != ValueMethod::Loopy {
            total.by = SUM_RULE.to_string();
        }
        Ok(total)
    }

    /// The value of a map cell from the map cached for `ruleset`, if it holds the cell.
    fn cached_map(&mut self, ruleset: &Ruleset, p: &Position) -> Option<Answer> {
        let (a, b) = route::map_cell(ruleset, p)?;
        let g = self.grids.get(ruleset)?;
        let answer = map_answer(g, a, b)?;
        self.touch(ruleset);
        Some(answer)
    }

    /// The value of a map cell from a map filled from the origin ([`route::map_plan`]), at
    /// least as large as the one cached (so the inspector's neighbouring cells are answered
    /// from one fill).
    fn by_map(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<Option<Answer>, SolveError> {
        let (Some((a, b)), Some(plan)) = (route::map_cell(ruleset, p), route::map_plan(ruleset, p)) else {
            return Ok(None);
        };
        self.touch(ruleset);
        let (r0, c0) = self.grids.get(ruleset).map_or((0, 0), |g| (g.rows.end, g.cols.end));
        let (rows, cols) = (plan.rows.max(r0), plan.cols.max(c0));
        // the larger map replaces the cached one
        self.grids.remove(ruleset);
        let needed = if (rows, cols) == (plan.rows, plan.cols) {
            plan.bytes
        } else {
            plan.bytes.saturating_mul(2)
        };
        self.make_room(needed, control);
        let g = match grid::filled(ruleset, &Layout::Plain, 0..rows, 0..cols, control) {
            Err(SolveError::OverBudget { .. }) if (rows, cols) != (plan.rows, plan.cols) => {
                grid::filled(ruleset, &Layout::Plain, 0..plan.rows, 0..plan.cols, control)?
            }
            // a typed rule that fails (or loops) somewhere in the map: the search from the
            // position itself meets only what it reaches, and says where
            Err(SolveError::Rule(_) | SolveError::Loops(_)) => return Ok(None),
            g => g?,
        };
        let answer = map_answer(&g, a, b);
        self.grids.insert(ruleset.clone(), g);
        Ok(answer)
    }

    /// The Cram and Push Cram solvers (a checkpoint restores their tables and saves them).
    pub fn cram_solvers(&mut self) -> (&mut CramSolver, &mut PushCramSolver) {
        (&mut self.cram, &mut self.push_cram)
    }

    /// Whether `p` is a P-position: the Cram solvers search outcomes, which is cheaper than
    /// values; other rulesets go through [`Evaluator::value`].
    fn is_p_position(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<bool, SolveError> {
        if let Position::Board(b) = p {
            if *ruleset == Ruleset::Cram(Dominoes::Both) {
                return Ok(self.cram.outcome(b, control)? == Outcome::P);
            }
            if is_push_cram(ruleset) {
                return Ok(self.push_cram.outcome(b, control)? == Outcome::P);
            }
        }
        Ok(self.value(ruleset, p, control)? == 0)
    }

    /// The [`CramSummary`] of a position of value `value`, without valuing every option: a
    /// P-position is no bluff, and an N-position is settled at its first option that is not
    /// a P-position. (`nimscope cram 2x64` is 0 by symmetry; its 190 options are not.)
    pub fn cram_summary(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        value: u32,
        control: &Control,
    ) -> Result<CramSummary, SolveError> {
        let mut opts = Vec::new();
        ruleset.options(p, &mut opts);
        let mut after_push = None;
        for o in &opts {
            if matches!(o, Position::Pushed { .. }) && !matches!(p, Position::Pushed { .. }) {
                after_push = Some(self.value(ruleset, o, control)?);
            }
        }
        if let (Ruleset::Cram(Dominoes::Both), Position::Board(b)) = (ruleset, p) {
            return Ok(CramSummary {
                moves: opts.len(),
                bluff: self.cram.is_bluff_of_value(b, value, control)?,
                after_push,
            });
        }
        let mut bluff = value != 0 && !opts.is_empty();
        for o in &opts {
            if !bluff {
                break;
            }
            control.check()?;
            bluff = self.is_p_position(ruleset, o, control)?;
        }
        Ok(CramSummary {
            moves: opts.len(),
            bluff,
            after_push,
        })
    }
}

const MAP: &str = "a filled map of the positions below";

/// The answer a map's cell (a, b) gives: its value, or in a game that loops Smith's.
fn map_answer(g: &Grid, a: u64, b: u64) -> Option<Answer> {
    match g.infinite_sets() {
        Some(_) => Some(Answer::of_gamma(g.gamma(a, b)?, ValueMethod::Loopy, MAP)),
        None => Some(Answer::value(g.get_wide(a, b)?, ValueMethod::Search, MAP)),
    }
}
const LOOPY: &str = "Smith's theory of games that loop (a retrograde labelling of the positions reached)";

mod answer;
mod methods;
mod options;

pub use answer::{Answer, CramSummary, OptionAnswer, OptionValue, OptionsPage, ValueMethod, gamma_cell};
pub use options::first_options;

#[cfg(test)]
mod tests;
