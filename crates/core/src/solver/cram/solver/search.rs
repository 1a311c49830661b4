//! The search of the Cram solver: the value of a component (`nimber`), whether it lies in a
//! set (`nimber_in_set`), and the mex found by asking options for one value at a time.

use super::{CramSolver, Opt, Res, keep_smallest, single, xor_set};
use crate::game::rules::cram_board::low_bits;
use crate::solver::control::{Control, SolveError};

impl CramSolver {
    /// Value of any set of cells (stride `w`): XOR of its components' values.
    pub(in crate::solver::cram) fn sum_value(&mut self, cells: u128, w: usize, control: &Control) -> Res<u32> {
        let base = self.comps.len();
        let (mut xor, n, _) = self.push_components(cells, w);
        for i in 0..n as usize {
            let (k, kw) = self.comps[base + i];
            xor ^= self.root_nimber(k, kw, control)?;
        }
        self.comps.truncate(base);
        Ok(xor)
    }

    /// Whether the value of a set of cells (stride `w`) is `v`.
    pub(in crate::solver::cram) fn sum_has_value(
        &mut self,
        cells: u128,
        w: usize,
        v: u32,
        control: &Control,
    ) -> Res<bool> {
        Ok(self.sum_value_in_set(cells, w, v, single(v), control)? == Some(v))
    }

    /// The value of a set of cells (stride `w`) if it lies in `set` (see
    /// [`CramSolver::option_value_in_set`], whose `hint` this is).
    pub(in crate::solver::cram) fn sum_value_in_set(
        &mut self,
        cells: u128,
        w: usize,
        hint: u32,
        set: u128,
        control: &Control,
    ) -> Res<Option<u32>> {
        let base = self.comps.len();
        let (xor, n, cells_left) = self.push_components(cells, w);
        let mut opt = Opt {
            first: base as u32,
            len: n,
            xor,
            cells: cells_left,
            moves: 0,
        };
        let result = self.option_value_in_set(&mut opt, hint, set, control);
        self.comps.truncate(base);
        result
    }

    /// The value of an option if it lies in `set` (`None`: it does not). Reduces the option to
    /// its largest component first, computing the others exactly, and records that in `opt`.
    /// `hint` is a value of `set` used when the set cannot hold it (values of 128 and more).
    pub(in crate::solver::cram) fn option_value_in_set(
        &mut self,
        opt: &mut Opt,
        hint: u32,
        set: u128,
        control: &Control,
    ) -> Res<Option<u32>> {
        self.steps.step(control)?;
        if self.expanded >= self.expand_limit {
            self.limit_hit = true;
            return Err(SolveError::Cancelled);
        }
        while opt.len > 1 {
            let (k, kw) = self.comps[opt.first as usize];
            opt.xor ^= self.nimber(k, kw, control)?;
            opt.cells -= k.count_ones();
            opt.first += 1;
            opt.len -= 1;
        }
        if opt.len == 0 {
            return Ok(Some(opt.xor));
        }
        let (k, kw) = self.comps[opt.first as usize];
        if set == 0 || opt.xor >= 128 {
            // Values of 128 and more do not fit the sets: compute the exact value (such values
            // need at least 128 options, so this does not happen on real boards).
            let v = self.nimber(k, kw, control)? ^ opt.xor;
            return Ok((set >> v.min(127) & 1 == 1 || v == hint).then_some(v));
        }
        Ok(self
            .nimber_in_set(k, kw, xor_set(set, opt.xor), control)?
            .map(|x| x ^ opt.xor))
    }

    /// Exact value of a component.
    pub(in crate::solver::cram) fn nimber(&mut self, key: u128, w: usize, control: &Control) -> Res<u32> {
        if let Some(v) = self.lookup(key, w) {
            return Ok(v);
        }
        let v = self.in_frame(|s| s.nimber_inner(key, w, control))?;
        self.store(key, w, v);
        Ok(v)
    }

    pub(in crate::solver::cram) fn nimber_inner(&mut self, key: u128, w: usize, control: &Control) -> Res<u32> {
        let base = self.opts.len();
        // With an empty stop set the generation never stops early.
        let Ok((known, count)) = self.push_options(key, w, 0) else {
            return Err(SolveError::Unsupported("internal: option generation stopped".into()));
        };
        self.mex_by_search(base, known, count, control)
    }

    /// The value of the component whose options are `opts[base..]`: for v = 0, 1, ... look
    /// for an option of value v, asking each option only "is your value v?"; an option that
    /// answers with another exact value is dropped and its value noted.
    pub(in crate::solver::cram) fn mex_by_search(
        &mut self,
        base: usize,
        known: [u64; 4],
        count: u32,
        control: &Control,
    ) -> Res<u32> {
        let mut known = known;
        let mut live = self.opts.len() - base;
        'values: for v in 0..=count {
            if v < 256 && known[(v / 64) as usize] >> (v % 64) & 1 == 1 {
                continue;
            }
            let mut i = base;
            while i < base + live {
                let mut opt = self.opts[i];
                let found = self.option_value_in_set(&mut opt, v, single(v), control)?;
                self.opts[i] = opt;
                match found {
                    Some(x) => {
                        self.opts.swap(i, base + live - 1);
                        live -= 1;
                        if x == v {
                            continue 'values;
                        }
                        if x < 256 {
                            known[(x / 64) as usize] |= 1 << (x % 64);
                        }
                    }
                    None => i += 1,
                }
            }
            return Ok(v);
        }
        // The mex of `count` values is at most `count`.
        Ok(count)
    }

    /// The component's value if it lies in `set` (bit v: value v < 128), `None` when it does
    /// not. May return a value outside `set` when it is known anyway. This is Beling and
    /// Rogalski's search ("On pruning search trees of impartial games", 2020): the candidates
    /// for the mex shrink as options report, and each option is only asked about the
    /// candidates that still matter.
    pub(in crate::solver::cram) fn nimber_in_set(
        &mut self,
        key: u128,
        w: usize,
        set: u128,
        control: &Control,
    ) -> Res<Option<u32>> {
        let info = self.info(key, w);
        if let Some(x) = info.exact {
            self.hits += 1;
            return Ok(Some(x));
        }
        // Values already excluded, and values above the number of options (< 2 * cells).
        let set = set & !(info.not as u128) & low_bits(2 * key.count_ones() as usize);
        if set == 0 {
            self.hits += 1;
            return Ok(None);
        }
        Ok(match self.in_frame(|s| s.nimber_in_set_inner(key, w, set, control))? {
            Ok(v) => self.record(key, w, Some(v), set),
            // Not in `set`, nor any exact value of an option seen on the way (a component
            // never has an option's value): more than was asked, for the next question.
            Err(seen) => self.record(key, w, None, set | seen),
        })
    }

    /// [`CramSolver::nimber_in_set`] searching the options: `Ok` with the value, or `Err` when
    /// it is not in `set`, holding the exact option values (below 128) seen on the way.
    pub(in crate::solver::cram) fn nimber_in_set_inner(
        &mut self,
        key: u128,
        w: usize,
        set: u128,
        control: &Control,
    ) -> Res<Result<u32, u128>> {
        let base = self.opts.len();
        let (known, count) = match self.push_options(key, w, set) {
            Ok(generated) => generated,
            // Options already have every value of `set`.
            Err(seen) => return Ok(Err(seen)),
        };
        let live = self.opts.len() - base;
        // A thread helping another on the same question takes the options from the other end
        // (`parallel.rs`); the order changes nothing but the time.
        let reverse = std::mem::take(&mut self.reverse_next);
        if count >= 127 {
            // Candidate sets hold values below 128: use the plain search.
            return Ok(Ok(self.mex_by_search(base, known, count, control)?));
        }
        let known = known[0] as u128 | (known[1] as u128) << 64;
        let mut seen = known;
        // The value is the smallest candidate left once every option's value is removed; with
        // k options left only the k + 1 smallest candidates can still become it.
        let mut cand = keep_smallest(low_bits(count as usize + 1) & !known, live + 1);
        let top = 127 - set.leading_zeros();
        let upto = low_bits(top as usize + 1);
        let mut exact = true;
        for i in 0..live {
            if cand & set == 0 {
                return Ok(Err(seen));
            }
            // Whether the option's value is the largest candidate does not matter: that
            // candidate goes anyway when the option count drops.
            let largest = 1u128 << (127 - cand.leading_zeros());
            let below = cand & !largest;
            let query = below & upto;
            let j = if reverse { base + live - 1 - i } else { base + i };
            let mut opt = self.opts[j];
            let value = if query == 0 {
                None
            } else {
                let hint = query.trailing_zeros();
                self.option_value_in_set(&mut opt, hint, query, control)?
            };
            self.opts[j] = opt;
            match value {
                Some(x) if x < 128 => {
                    cand &= !(1u128 << x);
                    seen |= 1u128 << x;
                }
                Some(_) => {}
                None => {
                    cand = below;
                    exact = false;
                }
            }
            cand = keep_smallest(cand, live - i);
        }
        let e = cand.trailing_zeros();
        // Without every exact option value, candidates above the top of `set` may be wrong,
        // but those at or below it are right.
        Ok(if exact || e <= top { Ok(e) } else { Err(seen) })
    }
}
