//! A Cram or Push Cram search split into work units that separate processes answer: the plan
//! (`nimscope cram BOARD --plan DIR`), one unit (`--unit DIR K`) and the root's value combined
//! from the units' answers (`--combine DIR`).
//!
//! The plan is the game tree of the root down to a fixed depth, as a DAG: positions that the
//! solver's own keys make equal (the symmetries of the board, the split into components, the
//! reductions and closed forms of `reduce.rs`; for Push Cram the keys of `push_keys.rs`) are
//! one node, and positions whose value those give at once are folded into their parent as
//! known values. Every position left at the plan's depth is a unit. An outcome plan asks each
//! unit "is it a P-position?"; a node is an N-position as soon as one option is one, so the
//! answers already given can make other units irrelevant ([`Plan::needed`]), and `--unit`
//! skips those.
//!
//! A value plan does not ask units for their exact values: that costs far more than the single
//! search, which asks each option of the root only "is your value v?" for v = 0, 1, ... and
//! settles most of those questions by one look-up. Its units answer the same questions: a
//! node whose options have the values 0..m-1 asks each option that may still be m whether it
//! is ([`Plan::needed`]); a unit answers with its value or with "not m" ([`Fact::Excluded`]).
//! When every option is known not to be m, the node's value is m; when one is, m grows and
//! the others are asked again. So a value plan runs in rounds: `--combine` names the units
//! the root still needs (`--needed` lists them for a scheduler), and a unit run again resumes
//! from its checkpoint. The root's value follows from the answers bottom-up
//! ([`Plan::facts`]), which is all `--combine` does.
//!
//! Units share nothing but files: each answer is one small JSON file written atomically
//! ([`answer`]), and what a unit proved on the way (exact values of large components) goes to
//! a file of its own that later units load first ([`store`]). Nothing is shared while units
//! run, so a scheduler may run them in any order, twice, or on different machines. Every file
//! carries evidence: an HMAC under a key of the plan's own ([`evidence`]), and `--combine`
//! rebuilds the tree from the board ([`Plan::load_bound`]).
//!
//! Layout: the tree's construction in `build`, what to ask next in [`questions`], the
//! rounds a scheduler records in [`rounds`], answer files in [`answer`], the proven values in
//! [`store`], the key and its tags in [`evidence`], the units at work in [`running`], the
//! size of a unit in [`estimate`], a hunt's state in [`status`] and answers asked again in
//! [`verify`], the combination of the answers in `combine`; this file holds the manifest,
//! its checks and the search that answers a unit ([`solve_unit`]).

pub mod answer;
mod build;
mod combine;
pub mod estimate;
pub mod evidence;
pub mod questions;
pub mod rounds;
pub mod running;
pub mod status;
pub mod store;
#[cfg(test)]
mod tests;
pub mod verify;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::push::PushCramSolver;
use super::solver::CramSolver;
use crate::game::Outcome;
use crate::game::cram_game::CramGame;
use crate::game::rules::cram_board::Board;
use crate::solver::control::{Control, SolveError};
use evidence::{Domain, Key};

pub use combine::merged;
pub use questions::{Bluff, DEFAULT_AHEAD, MAX_AHEAD, Policy};

/// The manifest's format tag and version (a reader refuses others).
pub const PLAN_FORMAT: &str = "nimscope-cram-plan";
/// The manifest's format version this build writes and reads.
pub const PLAN_VERSION: u32 = 3;

/// The plan's file inside its folder.
pub const PLAN_FILE: &str = "plan.json";

/// Deepest plan: the tree grows by the number of moves per ply (some 30 to 80).
pub const MAX_DEPTH: u32 = 4;

/// Most nodes a plan may hold; a deeper plan of a large board is refused before it fills
/// memory.
pub const MAX_NODES: usize = 500_000;

/// Largest plan file read back (bytes).
const MAX_PLAN_BYTES: u64 = 512 << 20;

/// What a plan asks about the root, and each unit about its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Question {
    /// The Grundy value.
    Value,
    /// Only whether it is a P-position.
    Outcome,
}

impl Question {
    /// The question's name as files and messages write it: `value` or `outcome`.
    pub fn name(self) -> &'static str {
        match self {
            Question::Value => "value",
            Question::Outcome => "outcome",
        }
    }
}

/// What is known about a position: its value, only whether its value is 0 (an outcome plan),
/// or values it does not have (a value plan that has not needed its value yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// The exact Grundy value.
    Value(u32),
    /// Whether the value is 0 (`true`: a P-position), from an outcome plan.
    IsZero(bool),
    /// Bit `v` set: the value is not `v` (values below 128 only; never empty).
    Excluded(u128),
}

impl Fact {
    /// Whether the value is known to be 0.
    pub fn is_zero(self) -> bool {
        match self {
            Fact::Value(v) => v == 0,
            Fact::IsZero(z) => z,
            Fact::Excluded(_) => false,
        }
    }

    /// P or N, when known.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Fact::Excluded(s) if s & 1 == 0 => None,
            _ if self.is_zero() => Some(Outcome::P),
            _ => Some(Outcome::N),
        }
    }

    /// Whether the value is known not to be `v`.
    pub fn excludes(self, v: u32) -> bool {
        match self {
            Fact::Value(x) => x != v,
            Fact::IsZero(z) => z != (v == 0),
            Fact::Excluded(s) => v < 128 && s >> v & 1 == 1,
        }
    }

    /// Whether the value is known (an outcome plan: whether the outcome is).
    pub fn is_settled(self) -> bool {
        !matches!(self, Fact::Excluded(_))
    }

    /// Whether both can be true of one position.
    pub fn consistent_with(self, other: Fact) -> bool {
        match (self, other) {
            (Fact::Value(a), Fact::Value(b)) => a == b,
            (Fact::Value(v), f @ Fact::Excluded(_)) | (f @ Fact::Excluded(_), Fact::Value(v)) => !f.excludes(v),
            (Fact::Excluded(_), Fact::Excluded(_)) => true,
            (Fact::IsZero(a), Fact::IsZero(b)) => a == b,
            (Fact::IsZero(z), f) | (f, Fact::IsZero(z)) => f.outcome().is_none_or(|o| (o == Outcome::P) == z),
        }
    }
}

/// A question to a unit of a value plan: its value if it lies in the set (bit `v`: is it
/// `v`?), or [`ask::EXACT`]. An outcome plan asks every unit [`ask::ZERO`].
pub type Ask = u128;

/// The questions [`Ask`] names.
pub mod ask {
    /// Is the value 0?
    pub const ZERO: super::Ask = 1;
    /// What is the value? (For a value of 128 or more, which a set cannot name.)
    pub const EXACT: super::Ask = u128::MAX;
}

/// A node of the plan's tree. Options come before the nodes that list them (ids grow
/// bottom-up), so one pass in id order settles every node that can be settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PlanNode {
    /// A position left to a unit.
    Unit {
        /// The unit's number: its position is `work[unit]`.
        unit: usize,
    },
    /// A position whose value is the mex of `known` (values of options the plan settled at
    /// once, the push's among them) and of the values of the nodes `options`.
    Options {
        /// Values of options the plan settled at once (the push's among them).
        known: Vec<u32>,
        /// Ids of the option nodes whose values come from units or deeper nodes.
        options: Vec<usize>,
    },
}

/// One unit: a position (in the board's frame, row for row) and how large it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    /// The position, in the text form of boards.
    pub board: String,
    /// Its empty cells.
    pub cells: u32,
    /// Its legal moves (before the push, with the push, for Push Cram).
    pub moves: u32,
}

/// A plan: what `--plan` writes to `DIR/plan.json` (and its key, `DIR/plan.key`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// The manifest's version, [`PLAN_VERSION`] when written.
    pub version: u32,
    /// The nimscope that wrote it (answers record theirs; values do not depend on it).
    pub solver: String,
    /// Cram or Push Cram.
    #[serde(with = "crate::game::cram_game::by_name")]
    pub game: CramGame,
    /// The root, in the text form of boards.
    pub board: String,
    /// Whether the units are asked values or outcomes.
    pub question: Question,
    /// Plies from the root to the units.
    pub depth: u32,
    /// How many units (numbered from 0).
    pub units: usize,
    /// The SHA-256 of everything below: answers name it, so an answer of another plan is
    /// refused.
    pub id: String,
    /// The id's tag under the plan's key ([`evidence`]): a plan edited and its id recomputed
    /// without the key is refused.
    #[serde(default)]
    pub seal: String,
    /// How the root's answer follows from the units' (for a reader of the file).
    pub combine: String,
    /// The root's node.
    pub root: usize,
    /// The nodes of the tree, indexed by id; options have smaller ids than their parents.
    pub nodes: Vec<PlanNode>,
    /// Unit `k` is `work[k]`.
    pub work: Vec<UnitSpec>,
    /// The key of its folder, once saved or loaded.
    #[serde(skip)]
    key: Option<Key>,
}

/// Why a plan, an answer or a proven-values file cannot be used. Every message is one line
/// naming the file.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        error: std::io::Error,
    },
    /// The file is not a nimscope Cram plan (or answer); `why` says what is wrong.
    #[error("{}: not a nimscope Cram plan ({why})", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file is damaged (bad check, malformed contents).
    #[error("{}: damaged ({why}); remove it and run the unit again", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file belongs to another plan, unit or game.
    #[error("{}: {why}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What it belongs to instead, and what to do.
        why: String,
    },
    /// The request is refused before any work (depth out of range, too many nodes); the message says why.
    #[error("{0}")]
    Refused(String),
    /// The search of a unit stopped (cancelled, over the memory budget).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl PlanError {
    fn io(path: &Path, error: std::io::Error) -> PlanError {
        PlanError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

/// Writes `value` as one line of JSON to `path`, atomically, making its folder first: how a
/// plan, a round, an answer and a marker reach the plan's folder.
fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), PlanError> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| PlanError::io(folder, e))?;
    }
    let mut text = serde_json::to_vec(value).map_err(|e| PlanError::Refused(e.to_string()))?;
    text.push(b'\n');
    crate::files::write_with(path, crate::files::Accept::FileOnly, |f| {
        std::io::Write::write_all(f, &text)
    })
    .map_err(|e| PlanError::io(path, e))
}

impl Plan {
    /// The plan of `board` in `game` down to `depth` plies (1 to [`MAX_DEPTH`]).
    pub fn new(game: CramGame, board: &Board, question: Question, depth: u32) -> Result<Plan, PlanError> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(PlanError::Refused(format!(
                "--depth {depth}: a plan goes 1 to {MAX_DEPTH} plies deep"
            )));
        }
        let (root, nodes, work) = build::build(game, board, question, depth)?;
        let mut plan = Plan {
            format: PLAN_FORMAT.into(),
            version: PLAN_VERSION,
            solver: format!("nimscope {}", crate::GIT_COMMIT_VERSION),
            game,
            board: board.to_string(),
            question,
            depth,
            units: work.len(),
            id: String::new(),
            combine: match question {
                Question::Value => "a position's value is the mex of its options' values (known ones and those of its option nodes), from the units up to the root; a position whose options have the values 0..m-1 asks those that may be m whether they are (units answer such questions, in rounds, until the root's value is settled)".into(),
                Question::Outcome => "a position is a P-position when none of its options is one (known values of 0 included), from the units up to the root".into(),
            },
            root,
            nodes,
            work,
            seal: String::new(),
            key: None,
        };
        plan.id = plan.compute_id();
        Ok(plan)
    }

    fn compute_id(&self) -> String {
        let mut copy = self.clone();
        copy.id.clear();
        copy.seal.clear();
        copy.solver.clear();
        let text = serde_json::to_string(&copy).unwrap_or_default();
        evidence::digest_hex(text.as_bytes())
    }

    /// The key of the plan's folder (a plan saved or loaded has one).
    pub fn key(&self) -> Result<&Key, PlanError> {
        self.key
            .as_ref()
            .ok_or_else(|| PlanError::Refused("internal: a plan without its key (save or load it first)".into()))
    }

    /// Unit `k`'s board.
    pub fn unit_board(&self, k: usize) -> Result<Board, PlanError> {
        let spec = self.work.get(k).ok_or_else(|| {
            PlanError::Refused(format!("unit {k}: the plan has {} units, numbered from 0", self.units))
        })?;
        spec.board
            .parse()
            .map_err(|e| PlanError::Refused(format!("unit {k}'s board {}: {e}", spec.board)))
    }

    /// Writes the plan to `dir/plan.json` (atomically) with a new key in `dir/plan.key`,
    /// creating `dir`. A folder that holds another plan is refused (its answers belong to that
    /// one); the same plan again keeps its key.
    pub fn save(&mut self, dir: &Path) -> Result<(), PlanError> {
        std::fs::create_dir_all(dir).map_err(|e| PlanError::io(dir, e))?;
        let path = dir.join(PLAN_FILE);
        if path.exists() {
            let old = Plan::load(dir)?;
            if old.id == self.id {
                *self = old;
                return Ok(());
            }
            return Err(PlanError::Mismatch {
                path,
                why: format!(
                    "holds another plan ({} {} by {}, depth {}); give another folder",
                    old.game.name(),
                    old.board,
                    old.question.name(),
                    old.depth
                ),
            });
        }
        // The key first: a plan is never without it.
        let key = Key::generate()?;
        key.save(dir)?;
        self.seal = key.tag_text(Domain::Plan, self.id.as_bytes());
        self.key = Some(key);
        write_json(&path, self)
    }

    /// Reads and checks `dir/plan.json`: its format, its id, and that its tree is whole.
    pub fn load(dir: &Path) -> Result<Plan, PlanError> {
        let path = dir.join(PLAN_FILE);
        let bytes = crate::files::read_bounded(&path, MAX_PLAN_BYTES, "a plan").map_err(|e| PlanError::io(&path, e))?;
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| PlanError::Foreign {
            path: path.clone(),
            why: format!("not JSON: {e}"),
        })?;
        if value.get("format").and_then(|f| f.as_str()) != Some(PLAN_FORMAT) {
            return Err(PlanError::Foreign {
                path,
                why: format!("no \"format\": \"{PLAN_FORMAT}\""),
            });
        }
        let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
        if version != PLAN_VERSION as u64 {
            return Err(PlanError::Mismatch {
                path,
                why: format!(
                    "plan format {version}; this nimscope reads {PLAN_VERSION} (plan again in a new folder, or use the nimscope that wrote it)"
                ),
            });
        }
        let mut plan: Plan = serde_json::from_value(value).map_err(|e| PlanError::Damaged {
            path: path.clone(),
            why: e.to_string(),
        })?;
        let damaged = |why: String| PlanError::Damaged {
            path: path.clone(),
            why,
        };
        if plan.compute_id() != plan.id {
            return Err(damaged("its contents do not match its id".into()));
        }
        let key = Key::load(dir)?;
        if !key.check_text(Domain::Plan, plan.id.as_bytes(), &plan.seal) {
            return Err(PlanError::Mismatch {
                path,
                why: format!(
                    "its seal does not match {} (the plan was edited, or the key is another plan's)",
                    evidence::KEY_FILE
                ),
            });
        }
        plan.check_tree().map_err(damaged)?;
        plan.key = Some(key);
        Ok(plan)
    }

    /// [`Plan::load`], and the tree built again from the board: a plan whose board, game,
    /// question or depth does not give its tree (edited for another board, its id and seal
    /// made anew) is refused. Costs what `--plan` does (well under a second at depth 3).
    pub fn load_bound(dir: &Path) -> Result<Plan, PlanError> {
        let plan = Plan::load(dir)?;
        let path = dir.join(PLAN_FILE);
        let mismatch = |why: String| PlanError::Mismatch {
            path: path.clone(),
            why,
        };
        let board: Board = plan
            .board
            .parse()
            .map_err(|e| mismatch(format!("its board {}: {e}", plan.board)))?;
        let again = Plan::new(plan.game, &board, plan.question, plan.depth)?;
        if again.id != plan.id {
            return Err(mismatch(format!(
                "its tree and units are not the plan of its own board ({} {} by {}, depth {}): edited? plan the board again in a new folder",
                plan.game.name(),
                plan.board,
                plan.question.name(),
                plan.depth
            )));
        }
        Ok(plan)
    }

    /// Every option before its node, every unit once, the root last.
    fn check_tree(&self) -> Result<(), String> {
        if self.units != self.work.len() {
            return Err(format!("{} units listed, {} said", self.work.len(), self.units));
        }
        if self.root + 1 != self.nodes.len() {
            return Err("the root is not the last node".into());
        }
        let mut seen = vec![false; self.units];
        for (i, node) in self.nodes.iter().enumerate() {
            match node {
                PlanNode::Unit { unit } => match seen.get_mut(*unit) {
                    Some(s) if !*s => *s = true,
                    _ => return Err(format!("node {i}: unit {unit} out of range or listed twice")),
                },
                PlanNode::Options { options, .. } => {
                    if let Some(o) = options.iter().find(|&&o| o >= i) {
                        return Err(format!("node {i}: option {o} does not come before it"));
                    }
                }
            }
        }
        match seen.iter().position(|s| !s) {
            Some(k) => Err(format!("unit {k} is in no node")),
            None => Ok(()),
        }
    }
}

/// Answers question `ask` about unit `k` of `plan` with the solvers (whose tables may hold a
/// checkpoint's and the proven values already): the search `nimscope cram` runs on the
/// unit's board, asked only what the plan needs ([`Plan::needed`]). Push Cram answers "is it
/// v?" by one outcome search of the board plus a nim heap *v.
pub fn solve_unit(
    plan: &Plan,
    k: usize,
    ask: Ask,
    cram: &mut CramSolver,
    push: &mut PushCramSolver,
    control: &Control,
) -> Result<Fact, PlanError> {
    let board = plan.unit_board(k)?;
    Ok(match (plan.game, plan.question) {
        (CramGame::Cram, Question::Outcome) => Fact::IsZero(cram.outcome(&board, control)? == Outcome::P),
        (CramGame::PushCram, Question::Outcome) => Fact::IsZero(push.outcome(&board, control)? == Outcome::P),
        (CramGame::Cram, Question::Value) if ask == ask::EXACT => Fact::Value(cram.value(&board, control)?),
        (CramGame::Cram, Question::Value) => match cram.value_in_set(&board, ask, control)? {
            Some(v) => Fact::Value(v),
            // With what the search learnt on the way about the board itself (the exact values
            // of its options it saw, values asked before): more than was asked, for free.
            None => match cram.known_facts(&board, control)? {
                (Some(v), _) if ask >> v.min(127) & 1 == 0 => Fact::Value(v),
                (_, not) => Fact::Excluded(ask | not),
            },
        },
        (CramGame::PushCram, Question::Value) if ask == ask::EXACT => Fact::Value(push.value(&board, control)?),
        (CramGame::PushCram, Question::Value) => match push.value_in_set(&board, ask, control)? {
            Some(v) => Fact::Value(v),
            None => Fact::Excluded(ask),
        },
    })
}
