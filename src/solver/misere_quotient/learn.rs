//! Learning the quotient from outcomes (an observation table, as in Angluin's L*): rows are
//! collections that reach distinct elements, columns are test collections, and a cell is the
//! misère outcome of the row's collection plus the column's. Two collections whose rows differ
//! are distinguishable, so every element found is a true element of the quotient; a candidate
//! that fails the check of [`super::verify`] yields a collection whose outcome it predicts wrong,
//! and that counterexample is split (Rivest–Schapire) into one more test column.

use std::collections::HashMap;

use super::oracle::{Heaps, Oracle};
use crate::solver::control::{Control, SolveError};

/// Outcomes of one collection plus each test, as bits (bit set: P-position).
type Row = Vec<u64>;

fn bit(row: &Row, i: usize) -> bool {
    row[i / 64] >> (i % 64) & 1 == 1
}

fn push_bit(row: &mut Row, len: usize, value: bool) {
    if len.is_multiple_of(64) {
        row.push(0);
    }
    if value {
        row[len / 64] |= 1 << (len % 64);
    }
}

/// The observation table of one octal game, grown heap by heap.
#[derive(Debug)]
pub struct Table {
    /// Heaps `1..=heaps` are the generators so far.
    heaps: u16,
    /// Test collections; the first is the empty one, so a row's first bit is its own outcome.
    tests: Vec<Heaps>,
    /// One collection for each element found (`reps[0]` is empty: the identity); each one after
    /// the first is an earlier one plus one heap, so the transitions reach it.
    reps: Vec<Heaps>,
    rows: Vec<Row>,
    /// `ext[r][h - 1]`: the row of `reps[r]` plus a heap of `h`.
    ext: Vec<Vec<Row>>,
    /// `delta[r][h - 1]`: the element of `reps[r]` plus a heap of `h`.
    delta: Vec<Vec<u32>>,
    index: HashMap<Row, u32>,
}

fn plus(a: &[u16], b: &[u16]) -> Heaps {
    let mut s: Heaps = a.iter().chain(b).copied().collect();
    s.sort_unstable();
    s
}

impl Table {
    pub fn new(oracle: &mut Oracle, control: &Control) -> Result<Self, SolveError> {
        Self::with_empty(vec![Vec::new()], oracle, control)
    }

    /// A table with these tests (the first the empty collection) for heaps up to `heaps`.
    pub fn with_tests(
        tests: Vec<Heaps>,
        heaps: u16,
        oracle: &mut Oracle,
        control: &Control,
        max_elements: usize,
    ) -> Result<Self, SolveError> {
        let mut t = Self::with_empty(tests, oracle, control)?;
        t.add_heap(heaps, oracle, control, max_elements)?;
        Ok(t)
    }

    /// A table of no heap with these tests: the empty collection its one element.
    fn with_empty(tests: Vec<Heaps>, oracle: &mut Oracle, control: &Control) -> Result<Self, SolveError> {
        let mut t = Table {
            heaps: 0,
            tests,
            reps: Vec::new(),
            rows: Vec::new(),
            ext: Vec::new(),
            delta: Vec::new(),
            index: HashMap::new(),
        };
        t.add_rep(Vec::new(), oracle, control)?;
        Ok(t)
    }

    pub fn heaps(&self) -> u16 {
        self.heaps
    }

    /// The number of elements found.
    pub fn elements(&self) -> usize {
        self.reps.len()
    }

    pub fn tests(&self) -> &[Heaps] {
        &self.tests
    }

    pub fn reps(&self) -> &[Heaps] {
        &self.reps
    }

    /// The element of element `x` plus a heap of `h` (`1 ≤ h ≤ heaps`).
    pub fn step(&self, x: u32, h: u16) -> u32 {
        self.delta[x as usize][usize::from(h) - 1]
    }

    /// Whether element `x` is a P-position (its row's outcome without a test).
    pub fn is_p(&self, x: u32) -> bool {
        bit(&self.rows[x as usize], 0)
    }

    /// The element the table predicts for a collection, running the transitions in its order.
    pub fn run(&self, from: u32, heaps: &[u16]) -> u32 {
        heaps.iter().filter(|&&h| h > 0).fold(from, |x, &h| self.step(x, h))
    }

    fn row_of(&self, g: &[u16], oracle: &mut Oracle, control: &Control) -> Result<Row, SolveError> {
        let mut row = Row::new();
        for (i, t) in self.tests.iter().enumerate() {
            let p = oracle.is_p(&plus(g, t), control)?;
            push_bit(&mut row, i, p);
        }
        Ok(row)
    }

    fn add_rep(&mut self, g: Heaps, oracle: &mut Oracle, control: &Control) -> Result<u32, SolveError> {
        let row = self.row_of(&g, oracle, control)?;
        let mut ext = Vec::with_capacity(usize::from(self.heaps));
        for h in 1..=self.heaps {
            ext.push(self.row_of(&plus(&g, &[h]), oracle, control)?);
        }
        let id = self.reps.len() as u32;
        self.index.insert(row.clone(), id);
        self.reps.push(g);
        self.rows.push(row);
        self.ext.push(ext);
        self.delta.push(Vec::new());
        Ok(id)
    }

    /// Fills every transition, adding a new element whenever a collection plus a heap has a
    /// row no element has (the table is then closed).
    fn close(&mut self, oracle: &mut Oracle, control: &Control, max_elements: usize) -> Result<(), SolveError> {
        let mut r = 0;
        while r < self.reps.len() {
            control.check()?;
            let mut d = Vec::with_capacity(usize::from(self.heaps));
            for h in 1..=self.heaps {
                let row = &self.ext[r][usize::from(h) - 1];
                let to = match self.index.get(row) {
                    Some(&to) => to,
                    None => {
                        if self.reps.len() >= max_elements {
                            return Err(too_large(self.reps.len(), self.heaps));
                        }
                        let g = plus(&self.reps[r], &[h]);
                        self.add_rep(g, oracle, control)?
                    }
                };
                d.push(to);
            }
            self.delta[r] = d;
            r += 1;
        }
        Ok(())
    }

    /// Makes heaps up to `heaps` generators and closes the table.
    pub fn add_heap(
        &mut self,
        heaps: u16,
        oracle: &mut Oracle,
        control: &Control,
        max_elements: usize,
    ) -> Result<(), SolveError> {
        while self.heaps < heaps {
            self.heaps += 1;
            let h = self.heaps;
            for r in 0..self.reps.len() {
                let row = self.row_of(&plus(&self.reps[r], &[h]), oracle, control)?;
                self.ext[r].push(row);
            }
        }
        self.close(oracle, control, max_elements)
    }

    /// Adds a test column (rows stay distinct; transitions are recomputed and the table
    /// closed again).
    fn add_test(
        &mut self,
        t: Heaps,
        oracle: &mut Oracle,
        control: &Control,
        max_elements: usize,
    ) -> Result<(), SolveError> {
        let i = self.tests.len();
        for r in 0..self.reps.len() {
            control.check()?;
            let p = oracle.is_p(&plus(&self.reps[r], &t), control)?;
            push_bit(&mut self.rows[r], i, p);
            for h in 1..=self.heaps {
                let g = plus(&plus(&self.reps[r], &[h]), &t);
                let p = oracle.is_p(&g, control)?;
                push_bit(&mut self.ext[r][usize::from(h) - 1], i, p);
            }
        }
        self.tests.push(t);
        self.index = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| (row.clone(), r as u32))
            .collect();
        self.close(oracle, control, max_elements)
    }

    /// A collection (in the order given) whose outcome the table predicts wrong: finds the
    /// step where the prediction goes astray and adds the rest of the collection as a test.
    /// `false` when the oracle does not call it wrong after all (an oracle that assumes what
    /// the counterexample refutes).
    pub fn learn_from(
        &mut self,
        word: &[u16],
        oracle: &mut Oracle,
        control: &Control,
        max_elements: usize,
    ) -> Result<bool, SolveError> {
        let word: Vec<u16> = word.iter().copied().filter(|&h| h > 0).collect();
        // v(i): the outcome of the element reached after i heaps, played with the rest.
        // v(0) is the truth, v(len) the prediction; they differ, so some step changes it.
        let mut states = vec![0u32];
        for &h in &word {
            let x = *states.last().unwrap_or(&0);
            states.push(self.step(x, h));
        }
        let v = |i: usize, oracle: &mut Oracle| -> Result<bool, SolveError> {
            oracle.is_p(&plus(&self.reps[states[i] as usize], &word[i..]), control)
        };
        let (mut lo, mut hi) = (0usize, word.len());
        let (v_lo, v_hi) = (v(lo, oracle)?, v(hi, oracle)?);
        if v_lo == v_hi {
            return Ok(false);
        }
        // binary search for adjacent i, i + 1 with v(i) != v(i + 1)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if v(mid, oracle)? == v_lo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let test: Heaps = {
            let mut t = word[hi..].to_vec();
            t.sort_unstable();
            t
        };
        if self.tests.contains(&test) {
            return Ok(false);
        }
        self.add_test(test, oracle, control, max_elements)?;
        Ok(true)
    }

    /// Two transitions that disagree with commutativity: `x + h + k` and `x + k + h` reach
    /// different elements. One of the two ways errs at one of the tests; that test plus the
    /// other heap becomes a new test. `false` when the oracle contradicts itself.
    pub fn fix_commutativity(
        &mut self,
        x: u32,
        h: u16,
        k: u16,
        oracle: &mut Oracle,
        control: &Control,
        max_elements: usize,
    ) -> Result<bool, SolveError> {
        let a = self.step(self.step(x, h), k);
        let b = self.step(self.step(x, k), h);
        let Some(t) = (0..self.tests.len()).find(|&i| bit(&self.rows[a as usize], i) != bit(&self.rows[b as usize], i))
        else {
            return Err(SolveError::Unsupported("internal: two equal rows in the table".into()));
        };
        let t = self.tests[t].clone();
        let truth = oracle.is_p(&plus(&plus(&self.reps[x as usize], &[h, k]), &t), control)?;
        // via x + h: its element plus k plus the test
        let via_h = oracle.is_p(&plus(&plus(&self.reps[self.step(x, h) as usize], &[k]), &t), control)?;
        let test = if via_h != truth { plus(&[k], &t) } else { plus(&[h], &t) };
        if self.tests.contains(&test) {
            return Ok(false);
        }
        self.add_test(test, oracle, control, max_elements)?;
        Ok(true)
    }

    /// The first pair of transitions that does not commute, if any.
    pub fn non_commuting(&self) -> Option<(u32, u16, u16)> {
        for x in 0..self.reps.len() as u32 {
            for h in 1..=self.heaps {
                for k in h + 1..=self.heaps {
                    if self.step(self.step(x, h), k) != self.step(self.step(x, k), h) {
                        return Some((x, h, k));
                    }
                }
            }
        }
        None
    }
}

/// The refusal of a quotient past the largest size allowed.
pub fn too_large(size: usize, heaps: u16) -> SolveError {
    SolveError::Unsupported(format!(
        "the misère quotient has at least {size} elements by heap {heaps}, more than this tool keeps"
    ))
}
