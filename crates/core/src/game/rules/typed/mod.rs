//! Rules a user types: a small move language inside the ruleset expressions, so a researcher's
//! own game is explored like the built-in ones.
//!
//! ```text
//! rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b; (a - k, b - k) for k in 1..=min(a, b))
//! rule(n -> [k, n - k] for k in 1..n if 2*k < n)          # Grundy's game: a heap splits
//! rule(n -> [k for k in n - j + 1..n] for j in 1..=n)     # the Ruler game: a run of heads
//! ```
//!
//! A rule names its heaps (`n`, or `(a, b)`, `(a, b, c, d)`, … up to [`parse::MAX_HEAPS`]),
//! optionally a domain (`if a >= 1 and b >= 1`: the positions that exist), and after `->` its
//! terms separated by `;`. A term is a target (a position `(x, y)`; for one heap a heap `x` or
//! a collection `[x, y]`, the sum of its heaps, whose elements may be comprehensions `[k for k
//! in 1..n]`) followed by clauses: `for v in lo..hi`, `lo..=hi`, `{1, 3, 4}`, `primes(n)`,
//! `powers(2, n)` or `fibs(n)`, and `if`/`where` guards (`<`, `<=`, `==`, `!=`, chains like
//! `1 <= b <= a`, `and`, `or`, `not`, `prime(x)`, `distinct(a, b, c)`). Expressions: `+ - * /
//! % ^`, `min`, `max`, `gcd`, `isqrt`, `abs`, `xor`, `bitand`, `bitor`, `popcount`, `fib`,
//! `|x - y|`. Numbers are signed integers: a guard such as `k > n - 4` is evaluated as
//! written; only a heap of a target must be a natural number (a negative heap is an error
//! naming the term). A guard is checked as soon as the names it uses are bound (parts of an
//! `and` separately), so `(a - k*b, b) for k in 1..=a/b if b >= 1` never divides by zero.
//!
//! Files: [`ast`] (the tree and its canonical text), [`parse`], `program` (checked and
//! compiled once), `run` (options of one position, no allocation per option), [`estimate`]
//! (costs before they are spent), [`numbers`] (primes, Fibonacci numbers), [`analysis`] (what
//! a rule is: a built-in ruleset it equals, a move that grows without bound), [`examples`].

pub mod analysis;
pub mod ast;
pub mod estimate;
pub mod examples;
pub mod numbers;
pub mod parse;
pub(crate) mod program;
pub(crate) mod run;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub use parse::SyntaxError;
pub use run::{MAX_COLLECTION, MAX_OPTIONS, MAX_STEPS, MAX_TOTAL_STEPS, RuleError, Sink};

/// The language's reference, as `nimscope rules` prints it and the window's editor shows it.
pub const REFERENCE: &str = "\
A typed rule is a ruleset: rule(HEAPS -> TERM; TERM; ...)
  HEAPS   n (one heap; a position is a collection of heaps, their sum), or (a, b), (a, b, c, d), ...
          up to 16 heaps, optionally followed by 'if COND', the positions that exist,
          e.g. (a, b) if a >= 1 and b >= 1
  TERM    TARGET CLAUSES: the options TARGET for every binding of the clauses
  TARGET  (x, y, ...), as many as the heaps; for one heap a heap x or a collection [x, y]
          (empty: []) whose elements may be comprehensions: [k for k in n - j + 1..n]
  CLAUSES for v in LO..HI (HI excluded), LO..=HI, {1, 3, 4}, primes(N) (the primes up to N),
          powers(B, N) (1, B, B^2, ... up to N), fibs(N) (1, 2, 3, 5, 8, ... up to N);
          if COND (or where COND)
  COND    comparisons < <= > >= == != (chains: 1 <= b <= a), and, or, not, parentheses,
          prime(x), distinct(a, b, ...)
  EXPR    numbers, names, + - * / % ^ (power), unary -, min, max, gcd, isqrt, abs, xor, bitand,
          bitor, popcount, fib(k) (F(0) = 0, F(1) = 1), |x - y|
Numbers are signed integers: 'k > n - 4' is true or false as written, / divides rounding down
and x % m lies in 0..m for m > 0. A heap of a target must be a natural number: below zero (or
past 2^64 - 1) is an error naming the term, the part and the position. A guard is checked as
soon as the names it uses are bound (each part of an 'and' separately): '(a - k*b, b) for k in
1..=a/b if b >= 1' never divides by zero. Comments run from # to the end of the line.
A rule whose moves loop (a position leads back to itself) is valued by Smith's theory on the
positions it reaches: a value n, or infinity with the finite values of its options, infinity(A),
and the outcome P, N or D (a draw).
Example: nimscope seq 'rule(n -> [k, n - k] for k in 1..n if 2*k < n)' --to 30
More:    nimscope rules --examples";

/// A typed rule, parsed and compiled. Equal rules have equal canonical text (what `Display`
/// writes and a session saves); cloning shares the compiled program.
#[derive(Clone)]
pub struct TypedRule(Arc<Inner>);

struct Inner {
    text: String,
    program: program::Program,
    /// Whether a heap of 0 has no move (one-heap rules), so a collection may drop it.
    zero_terminal: bool,
    /// What the rule is, found once: see [`analysis`].
    facts: analysis::Facts,
    /// The built-in ruleset the rule equals, found at its first use (a comparison of options
    /// on some heaps: not at every keystroke of the editor).
    equivalent: std::sync::OnceLock<Option<analysis::Equivalent>>,
    take_and_break: std::sync::OnceLock<Option<analysis::TakeAndBreak>>,
}

impl TypedRule {
    /// Parses `rule(…)` starting at byte `pos` of `text` (just after the word `rule`), and
    /// returns the rule and the byte after its closing parenthesis.
    pub fn parse_at(text: &str, pos: usize) -> Result<(TypedRule, usize), SyntaxError> {
        let mut p = parse::Parser::new(text, pos);
        let ast = p.rule()?;
        let program = program::compile(&ast)?;
        let mut zero_options = 0usize;
        let zero_ok =
            program.arity != 1 || run::options(&program, &[0], &mut |_: usize, _: &[u64]| zero_options += 1).is_ok();
        let zero_terminal = program.arity == 1 && zero_ok && zero_options == 0;
        let facts = analysis::Facts::of(&program, zero_terminal);
        let rule = TypedRule(Arc::new(Inner {
            text: ast.to_string(),
            zero_terminal,
            program,
            facts,
            equivalent: std::sync::OnceLock::new(),
            take_and_break: std::sync::OnceLock::new(),
        }));
        Ok((rule, p.pos()))
    }

    /// Parses a whole text `rule(…)`.
    pub fn parse(text: &str) -> Result<TypedRule, SyntaxError> {
        // a byte-order mark is no part of the rule (a file saved by some editors starts with one)
        let start = text.len() - text.trim_start_matches('\u{feff}').trim_start().len();
        let rest = &text[start..];
        if !rest.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("rule")) {
            return Err(SyntaxError {
                message: "a typed rule starts with 'rule('".into(),
                at: start,
            });
        }
        let (rule, end) = Self::parse_at(text, start + 4)?;
        let tail = text[end..].trim_start();
        if !tail.is_empty() && !tail.starts_with('#') {
            return Err(SyntaxError {
                message: "unexpected text after the rule".into(),
                at: text.len() - tail.len(),
            });
        }
        Ok(rule)
    }

    /// The canonical text: `rule(…)` on one line.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// How many heaps a position has: 1 (collections of heaps allowed), or 2 to
    /// [`parse::MAX_HEAPS`].
    pub fn arity(&self) -> usize {
        self.0.program.arity
    }

    /// The rule compiled, as [`run`] evaluates it (the tests run it beside the definition).
    #[cfg(test)]
    pub(crate) fn program(&self) -> &program::Program {
        &self.0.program
    }

    /// What the analysis found: the moves that grow without bound.
    pub fn facts(&self) -> &analysis::Facts {
        &self.0.facts
    }

    /// The built-in ruleset this rule provably equals (Nim, Wythoff, a subtraction or octal
    /// game), whose engines the solvers then use; found once.
    pub fn equivalent(&self) -> Option<&analysis::Equivalent> {
        self.0
            .equivalent
            .get_or_init(|| analysis::equivalent(&self.0.program, self.0.zero_terminal))
            .as_ref()
    }

    /// The take-and-break code this one-heap rule provably equals (`0.07`, or with a digit
    /// before the point, `4.007`, or Grundy's unequal splits), for an engine of such codes.
    pub fn take_and_break(&self) -> Option<&analysis::TakeAndBreak> {
        self.0
            .take_and_break
            .get_or_init(|| analysis::octal::take_and_break(&self.0.program, self.0.zero_terminal))
            .as_ref()
    }

    /// For each heap, whether the rule can lower it by one (the others unchanged) at every
    /// position below `heaps`: a search from `heaps` then meets every position below it.
    pub fn unit_steps(&self, heaps: &[u64]) -> Vec<bool> {
        let boxed: Vec<estimate::Interval> = heaps.iter().map(|&h| (0, i128::from(h))).collect();
        analysis::steps::unit_steps(&self.0.program, &boxed)
    }

    /// Why the game from `heaps` (a position; one heap of a one-heap rule) is not finite, when
    /// a move that grows without bound applies there.
    pub fn grows_from(&self, heaps: &[u64]) -> Option<String> {
        analysis::pump::grows_from(&self.0.program, &self.0.facts.pumps, heaps)
    }

    /// The loop steps and options of the position `heaps` (or of each position of a box of
    /// heaps, each an interval), known before the rule runs.
    pub fn estimate(&self, heaps: &[estimate::Interval]) -> estimate::Estimate {
        estimate::estimate(&self.0.program, heaps)
    }

    /// Whether a heap of 0 has no move (a one-heap rule's collections drop it).
    pub fn zero_terminal(&self) -> bool {
        self.0.zero_terminal
    }

    /// Whether `heaps` (one position of `arity` heaps, or one heap) is a position.
    pub fn in_domain(&self, heaps: &[u64]) -> bool {
        run::in_domain(&self.0.program, heaps)
    }

    /// Hands every option of `heaps` (a position of `arity` heaps; one heap for a one-heap
    /// rule) to `sink`, in a fixed order.
    pub fn options<S: Sink>(&self, heaps: &[u64], sink: &mut S) -> Result<(), RuleError> {
        run::options(&self.0.program, heaps, sink)
    }

    /// A collection of heaps of a one-heap rule in its one written form: sorted, with heaps of
    /// 0 dropped when they have no move (no heap at all is written `0`).
    pub fn normalise(&self, mut heaps: Vec<u64>) -> Vec<u64> {
        if self.0.zero_terminal {
            heaps.retain(|&x| x > 0);
            if heaps.is_empty() {
                heaps.push(0);
            }
        }
        heaps.sort_unstable();
        heaps
    }

    /// Which term leads from `from` to `to` (positions of this rule), with its loop values:
    /// "term 3 (a - k, b - k), k = 2"; in a collection, which heap moved: "heap 7: term 2 …".
    pub fn describe(&self, from: &[u64], to: &[u64]) -> Option<String> {
        struct Find<'a> {
            to: &'a [u64],
            make: &'a dyn Fn(&[u64]) -> Vec<u64>,
            found: Option<(usize, Vec<i128>)>,
        }
        impl Sink for Find<'_> {
            fn option(&mut self, _: usize, _: &[u64]) {}
            fn option_bound(&mut self, term: usize, heaps: &[u64], loops: &[i128]) {
                if self.found.is_none() && (self.make)(heaps) == self.to {
                    self.found = Some((term, loops.to_vec()));
                }
            }
        }
        let find = |heaps: &[u64], make: &dyn Fn(&[u64]) -> Vec<u64>| {
            let mut f = Find { to, make, found: None };
            let _ = run::explain(&self.0.program, heaps, &mut f);
            f.found
        };
        let (heap, (term, values)) = if self.arity() == 1 {
            from.iter().enumerate().find_map(|(i, &n)| {
                if from[..i].contains(&n) {
                    return None;
                }
                let rest: Vec<u64> = from
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &x)| x)
                    .collect();
                let make = |parts: &[u64]| self.normalise([rest.as_slice(), parts].concat());
                find(&[n], &make).map(|f| (Some(n), f))
            })
        } else {
            find(from, &|o: &[u64]| o.to_vec()).map(|f| (None, f))
        }?;
        let t = &self.0.program.terms[term];
        let bindings: Vec<String> = t
            .loops
            .iter()
            .zip(&values)
            .map(|(l, v)| format!(", {} = {v}", l.var))
            .collect();
        let what = format!("term {}: {}{}", term + 1, t.target_text, bindings.concat());
        Some(match heap {
            Some(n) if from.len() > 1 => format!("heap {n}: {what}"),
            _ => what,
        })
    }

    /// The options of a position (`h`: a collection of heaps for a one-heap rule, else the
    /// rule's heaps), each once (a rule may give an option by several bindings) and in the
    /// order they are first given: for a one-heap rule, each heap of the collection replaced by
    /// each of its options' heaps (the collection normalised), heap by heap, a heap equal to an
    /// earlier one skipped (it gives the same collections).
    pub fn positions(&self, h: &[u64], out: &mut Vec<Vec<u64>>) -> Result<(), RuleError> {
        let start = out.len();
        let found = if self.arity() != 1 {
            self.options(h, &mut |_: usize, o: &[u64]| out.push(o.to_vec()))
        } else {
            let mut found = Ok(());
            for (i, &n) in h.iter().enumerate() {
                if h[..i].contains(&n) {
                    continue;
                }
                found = self.options(&[n], &mut |_: usize, parts: &[u64]| {
                    let mut c: Vec<u64> = Vec::with_capacity(h.len() + parts.len());
                    c.extend(h.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x));
                    c.extend_from_slice(parts);
                    out.push(self.normalise(c));
                });
                if found.is_err() {
                    break;
                }
            }
            found
        };
        dedup_keeping_order(out, start);
        found
    }

    /// A short form for titles: the text cut to `max` characters with an ellipsis.
    pub fn short_text(&self, max: usize) -> String {
        let t = self.text();
        if t.chars().count() <= max {
            t.to_string()
        } else {
            let mut s: String = t.chars().take(max.saturating_sub(1)).collect();
            s.push('…');
            s
        }
    }
}

/// Drops the repeats among `v[start..]`, keeping each first where it first came: by sorting
/// the indices (no hashing of every option).
fn dedup_keeping_order(v: &mut Vec<Vec<u64>>, start: usize) {
    let tail = &v[start..];
    let mut order: Vec<usize> = (0..tail.len()).collect();
    order.sort_by(|&i, &j| tail[i].cmp(&tail[j]).then(i.cmp(&j)));
    let mut keep = vec![true; tail.len()];
    for w in order.windows(2) {
        if tail[w[0]] == tail[w[1]] {
            keep[w[1]] = false;
        }
    }
    if keep.iter().all(|&k| k) {
        return;
    }
    let mut i = 0;
    let mut k = start;
    v.retain(|_| {
        let stay = k < start || keep[i];
        if k >= start {
            i += 1;
        }
        k += 1;
        stay
    });
}

impl PartialEq for TypedRule {
    fn eq(&self, other: &Self) -> bool {
        self.0.text == other.0.text
    }
}

impl Eq for TypedRule {}

impl Hash for TypedRule {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.text.hash(state);
    }
}

impl fmt::Debug for TypedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypedRule({})", self.0.text)
    }
}

impl fmt::Display for TypedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

impl serde::Serialize for TypedRule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.text)
    }
}

impl<'de> serde::Deserialize<'de> for TypedRule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        TypedRule::parse(&text).map_err(|e| {
            serde::de::Error::custom(format!(
                "the typed rule does not parse: {} (at character {} of the rule)",
                e.message,
                text[..e.at.min(text.len())].chars().count() + 1
            ))
        })
    }
}

#[cfg(test)]
mod fast_path_tests;
#[cfg(test)]
mod tests;
