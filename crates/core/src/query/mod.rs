//! The questions every face asks the core (a ruleset and a position read from text, a page of
//! moves, a sequence, a map, a misère quotient, a Cram board, a session's figure), checked,
//! answered and refused in one way: the command line and the Python package call these
//! functions, so they give the same answers under the same memory budget and refuse with the
//! same one-line messages ([`QueryError`]'s `Display` is the text after the command line's
//! `error: `).
//!
//! Files: [`maps`] (sequences and maps), [`cram`] (Cram and Push Cram boards), [`export`] (a
//! session's figure with the export's overrides).

pub mod cram;
pub mod export;
pub mod maps;

use crate::figure::FigureError;
use crate::game::quote::quoted;
use crate::game::rules::one_heap::OctalCode;
use crate::game::{ParseError, Position, PositionError, Ruleset};
use crate::session::SessionError;
use crate::solver::{Control, SolveError};

/// Why a question was not answered. Each variant says which part of the question was wrong,
/// so a face can map it to its own kind of error (the Python package's exception classes).
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// A ruleset expression that does not parse.
    #[error("ruleset: {0}")]
    Ruleset(ParseError),
    /// A rule file that cannot be read or does not hold one ruleset expression (the message
    /// names the file, and the line and column of a syntax error).
    #[error("{0}")]
    RuleFile(String),
    /// A text that is not a position of the ruleset.
    #[error("position {} of {ruleset}: {error}", quoted(.text))]
    Position {
        /// The text given.
        text: String,
        /// The ruleset it was read for.
        ruleset: Ruleset,
        /// Why it is not a position.
        error: PositionError,
    },
    /// A text that is not a Cram board.
    #[error("board {}: {message}", quoted(.text))]
    Board {
        /// The text given.
        text: String,
        /// Why it is not a board.
        message: String,
    },
    /// A question the ruleset cannot answer as asked (the sequence of a two-heap game, an empty
    /// region, a slice of the wrong length).
    #[error("{0}")]
    Unanswerable(String),
    /// The solver refused (the memory budget, a typed rule's error) or was cancelled.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A figure could not be made or written.
    #[error(transparent)]
    Figure(#[from] FigureError),
    /// A session file could not be read or written.
    #[error(transparent)]
    Session(#[from] SessionError),
}

impl QueryError {
    /// The solver's refusal inside this error, if it is one (a figure's included).
    pub fn solve_error(&self) -> Option<&SolveError> {
        match self {
            QueryError::Solve(e) | QueryError::Figure(FigureError::Solve(e)) => Some(e),
            _ => None,
        }
    }
}

/// A ruleset expression as the command line takes it.
pub fn ruleset(text: &str) -> Result<Ruleset, QueryError> {
    text.parse::<Ruleset>().map_err(QueryError::Ruleset)
}

/// Largest rule file read: a rule is a few lines; a megabyte is already absurd.
const MAX_RULE_FILE: u64 = 1 << 20;

/// Reads and parses a rule file (`--rule-file`): a regular file of at most a megabyte (read as
/// every input file is, [`crate::files::input::read_bounded`]) holding one ruleset expression
/// (comments from `#` to the end of a line; a byte-order mark skipped, a file with no rule said
/// to be empty). Errors name the file, the line and the column.
pub fn rule_file(path: &std::path::Path) -> Result<Ruleset, QueryError> {
    let name = crate::game::quote::escape(&path.display().to_string());
    let bytes = crate::files::input::read_bounded(path, MAX_RULE_FILE, "a rule")
        .map_err(|e| QueryError::RuleFile(format!("{name}: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| QueryError::RuleFile(format!("{name}: not UTF-8 text; a rule file is text")))?;
    // a byte-order mark (some editors write one) is no part of the rule
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let holds_text = text
        .lines()
        .any(|l| !l.split('#').next().unwrap_or_default().trim().is_empty());
    if !holds_text {
        return Err(QueryError::RuleFile(format!(
            "{name}: the file holds no rule (it is empty, or only comments); write one ruleset expression in it, such as rule(n -> n - k for k in 1..=n)"
        )));
    }
    text.parse::<Ruleset>().map_err(|e| {
        let (line, column) = e.line_and_column();
        QueryError::RuleFile(format!("{name}, line {line}, column {column}: {}", e.message))
    })
}

/// A position of `r` from its text (`3,5`, `60`, `20:5`, `3,5+7`, `pushed(3,5)`, a board).
pub fn position(r: &Ruleset, text: &str) -> Result<Position, QueryError> {
    r.parse_position(text).map_err(|error| QueryError::Position {
        text: text.to_string(),
        ruleset: r.clone(),
        error,
    })
}

/// Options listed by a page of moves when they do not all fit.
pub const DEFAULT_PAGE: usize = 1000;

/// The page of moves listed when none is asked for: every option when they all fit the memory
/// budget (as the page is held), else the first [`DEFAULT_PAGE`].
pub fn default_page(r: &Ruleset, p: &Position, control: &Control) -> usize {
    let each = 2 * crate::solver::search::position_bytes(p) + 256;
    let fit = crate::solver::budget::held_listing(control.memory_budget()) / each;
    match crate::game::rules::paging::option_count(r, p) {
        Some(total) if total <= u128::from(fit) => total as usize,
        Some(_) => DEFAULT_PAGE,
        None => usize::try_from(fit).unwrap_or(usize::MAX),
    }
}

/// The octal code of `octal(C)` or `misere(octal(C))`, whose misère quotient is asked for.
pub fn octal_code(r: &Ruleset) -> Result<OctalCode, QueryError> {
    match r {
        Ruleset::Octal(c) => Ok(c.clone()),
        Ruleset::Misere(inner) => match &**inner {
            Ruleset::Octal(c) => Ok(c.clone()),
            _ => Err(QueryError::Unanswerable(format!(
                "misère quotients are computed for octal games, not {r}"
            ))),
        },
        _ => Err(QueryError::Unanswerable(format!(
            "misère quotients are computed for octal games, e.g. 'octal(0.07)', not {r}"
        ))),
    }
}

/// Whether `r` is `misere(octal(C))` (its maps are outcomes by the misère quotient).
pub fn is_misere_octal(r: &Ruleset) -> bool {
    matches!(r, Ruleset::Misere(inner) if matches!(&**inner, Ruleset::Octal(_)))
}

/// The misère quotient of `r` (`octal(C)` or `misere(octal(C))`) for heaps up to `heaps`.
pub fn quotient(
    r: &Ruleset,
    heaps: u16,
    control: &Control,
) -> Result<crate::solver::misere_quotient::Quotient, QueryError> {
    let code = octal_code(r)?;
    Ok(crate::solver::misere_quotient::compute(&code, heaps, control)?)
}

/// The quotient as one JSON object: what `nimscope quotient --json` prints.
pub fn quotient_json(q: &crate::solver::misere_quotient::Quotient) -> serde_json::Value {
    use crate::solver::misere_quotient::monoid::Presentation;
    let generators: Vec<String> = q
        .generator_heaps()
        .iter()
        .enumerate()
        .map(|(i, h)| format!("{} = heap {h}", Presentation::generator_name(i)))
        .collect();
    let relations: Vec<String> = q
        .presentation()
        .relations
        .iter()
        .map(|(l, r)| format!("{} = {}", Presentation::word(l), Presentation::word(r)))
        .collect();
    let heap_elements: Vec<String> = (0..=q.heaps()).map(|h| q.name(q.heap_element(h))).collect();
    let stages: Vec<serde_json::Value> = q
        .stages()
        .iter()
        .map(|s| serde_json::json!({"heaps": s.heap, "size": s.size, "tame": s.tame, "states_checked": s.states, "split": s.split}))
        .collect();
    serde_json::json!({
        "ruleset": format!("misere(octal({}))", q.code()),
        "heaps": q.heaps(),
        "size": q.size(),
        "tame": q.is_tame(),
        "first_wild_heap": q.first_wild_heap(),
        "grew_at": q.grew_at(),
        "generators": generators,
        "relations": relations,
        "p_portion": q.p_portion_names(),
        "heap_elements": heap_elements,
        "stages": stages,
        "candidates": q.candidates(),
    })
}

/// The rules of the literature in the move language, one JSON object each (name, about,
/// text, equals): what `nimscope rules --examples --json` prints, a line each.
pub fn rule_examples() -> Vec<serde_json::Value> {
    crate::game::rules::typed::examples::EXAMPLES
        .iter()
        .map(|e| serde_json::json!({"name": e.name, "about": e.about, "text": e.text, "equals": e.equals}))
        .collect()
}

/// Largest bound of `check`: the checks fill maps of `upto × upto` cells.
pub const MAX_CHECK_BOUND: u64 = 100_000;

/// Refuses a bound of `check` past [`MAX_CHECK_BOUND`].
pub fn check_bound(upto: u64) -> Result<(), QueryError> {
    if upto > MAX_CHECK_BOUND {
        return Err(QueryError::Unanswerable(format!(
            "a bound is at most {MAX_CHECK_BOUND} (the checks fill maps of bound × bound cells)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
