//! One row of the `nimscope check` table: a statement from a paper, the range it was checked
//! on, how many cases that range held, and PASS, FAIL with the first counterexample, or EMPTY
//! when the range held no case (nothing was checked, so nothing passed).

/// What a row found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    /// Every case checked agrees, and there was at least one.
    Pass,
    /// A case disagrees: the counterexample says which.
    Fail,
    /// The range held no case.
    Empty,
}

impl Verdict {
    /// The verdict as the table prints it: `PASS`, `FAIL` or `EMPTY`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Empty => "EMPTY",
        }
    }
}

/// Result of checking one statement against computation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckRow {
    /// Where the statement comes from, e.g. "seed 003 Thm 3.1.6".
    pub source: String,
    /// The statement in a few words.
    pub statement: String,
    /// The range of positions checked, e.g. "0 <= a, b < 200".
    pub range: String,
    /// How many cases of the range were compared: positions, pairs of rulesets, boards,
    /// sequences or listed examples, as the row says.
    pub checked: u64,
    /// PASS, FAIL or EMPTY, from `checked` and `counterexample`.
    pub result: Verdict,
    /// `None` for PASS and EMPTY; `Some(counterexample)` for FAIL.
    pub counterexample: Option<String>,
}

impl CheckRow {
    /// A row whose verdict follows from what was found: FAIL with a counterexample, else EMPTY
    /// when no case was checked, else PASS.
    pub fn new(
        source: impl Into<String>,
        statement: impl Into<String>,
        range: impl Into<String>,
        checked: u64,
        counterexample: Option<String>,
    ) -> CheckRow {
        let result = match (&counterexample, checked) {
            (Some(_), _) => Verdict::Fail,
            (None, 0) => Verdict::Empty,
            (None, _) => Verdict::Pass,
        };
        CheckRow {
            source: source.into(),
            statement: statement.into(),
            range: range.into(),
            checked,
            result,
            counterexample,
        }
    }
}

/// The cases of one row: how many were checked, and the first counterexample.
#[derive(Debug, Default)]
pub struct Tally {
    /// Cases checked so far.
    pub checked: u64,
    /// The first counterexample found, if any.
    pub counterexample: Option<String>,
}

impl Tally {
    /// Records one case checked, `bad` being its counterexample if it is one (the first is
    /// kept).
    pub fn case(&mut self, bad: Option<String>) {
        self.checked += 1;
        if self.counterexample.is_none() {
            self.counterexample = bad;
        }
    }

    /// Adds the cases of another tally (its first counterexample, if this has none).
    pub fn add(&mut self, other: Tally) {
        self.checked += other.checked;
        if self.counterexample.is_none() {
            self.counterexample = other.counterexample;
        }
    }

    /// The table row of these cases, its verdict from them (see [`CheckRow::new`]).
    pub fn row(self, source: &str, statement: &str, range: impl Into<String>) -> CheckRow {
        CheckRow::new(source, statement, range, self.checked, self.counterexample)
    }
}
