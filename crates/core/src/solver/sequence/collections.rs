//! Values of one-heap rulesets whose options are collections of heaps (a rule whose moves
//! split a heap): each option's value is the nim-sum of its heaps' values, read from the
//! values before it.

use crate::game::MexSet;
use crate::solver::control::{Control, SolveError};
use crate::solver::period::NONE;

/// Receives the options of one heap as collections of heaps (their sum): the mex of their
/// nim-sums is the heap's value.
pub struct Collections<'a> {
    values: &'a [u32],
    seen: &'a mut MexSet,
    any: bool,
    decreasing: bool,
}

impl Collections<'_> {
    /// One option: the collection `parts` (every heap smaller than the one moved from).
    #[inline]
    pub fn option(&mut self, parts: &[u64]) {
        self.any = true;
        let mut x = 0;
        for &p in parts {
            match self.values.get(p as usize) {
                Some(&v) if v != NONE => x ^= v,
                _ => self.decreasing = false,
            }
        }
        self.seen.insert(x);
    }
}

/// G(0..len) of a one-heap game whose moves turn a heap into a collection of smaller heaps,
/// given by `options` (which hands the options of a heap to its [`Collections`] and says
/// whether the heap is a position). `None` if an option holds a heap not smaller than the
/// heap it came from.
pub fn from_collections(
    len: usize,
    control: &Control,
    mut options: impl FnMut(u64, &mut Collections) -> Result<bool, SolveError>,
) -> Result<Option<Vec<u32>>, SolveError> {
    let mut values: Vec<u32> = Vec::new();
    let mut seen = MexSet::new();
    for i in 0..len {
        if i % 4096 == 0 {
            control.check()?;
            control.add_done(4096.min((len - i) as u64));
            let needed = (i as u64 + 4096) * 4;
            if needed > control.memory_budget() {
                return Err(SolveError::OverBudget {
                    what: format!("{len} values"),
                    needed: len as u64 * 4,
                    budget: control.memory_budget(),
                });
            }
        }
        seen.clear();
        let mut c = Collections {
            values: &values,
            seen: &mut seen,
            any: false,
            decreasing: true,
        };
        let position = options(i as u64, &mut c)?;
        let (any, decreasing) = (c.any, c.decreasing);
        if !decreasing {
            return Ok(None);
        }
        values.push(match (position, any) {
            (false, _) => NONE,
            (true, true) => seen.mex(),
            (true, false) => 0,
        });
    }
    Ok(Some(values))
}
