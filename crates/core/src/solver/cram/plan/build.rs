//! The plan's tree: the root's options down to the plan's depth, each position keyed as the
//! solver keys it, so that equal positions are one node and positions the keys settle at once
//! are known values of their parent.
//!
//! Cram positions are keyed by [`CramSolver::push_components`] with an empty table: the XOR of
//! the values closed forms give and the sorted canonical keys of the other components (equal
//! pairs cancelled). Push Cram positions by their parts with a vertical domino
//! ([`split_parts`], equal pairs cancelled) and the XOR `t` of the others' post-push values,
//! as its table keys them; a position with no part left is valued at once (only the push).
//!
//! Ids are given bottom-up (a node after all of its options), and a position is entered in
//! the memo only once its node is whole, so the tree is a DAG whatever the keys merge.

use std::collections::HashMap;

use super::{MAX_NODES, PlanError, PlanNode, Question, UnitSpec};
use crate::game::cram_game::CramGame;
use crate::game::rules::cram_board::Board;
use crate::solver::cram::push::post_push_value;
use crate::solver::cram::push_keys::{cancel_pairs, split_parts};
use crate::solver::cram::solver::CramSolver;

/// A position's key: a XOR of known values and the sorted keys of the rest.
type Key = (u32, Vec<(u128, usize)>);

/// A position's node, or its value when the keys give it at once.
enum Child {
    Known(u32),
    Node(usize),
}

struct Builder {
    game: CramGame,
    depth: u32,
    /// Only for its keys (`push_components`); its table is never allocated.
    cram: CramSolver,
    memo: HashMap<Key, usize>,
    nodes: Vec<PlanNode>,
    work: Vec<UnitSpec>,
}

/// The plan's nodes (root last), its root and its units.
pub(super) fn build(
    game: CramGame,
    board: &Board,
    _question: Question,
    depth: u32,
) -> Result<(usize, Vec<PlanNode>, Vec<UnitSpec>), PlanError> {
    let mut b = Builder {
        game,
        depth,
        cram: CramSolver::with_table_bytes(0).with_threads(1),
        memo: HashMap::new(),
        nodes: Vec::new(),
        work: Vec::new(),
    };
    let root = b.expand(board, 0)?;
    Ok((root, b.nodes, b.work))
}

impl Builder {
    /// The position's key, or its value when the keys settle it.
    fn key(&mut self, board: &Board) -> Result<Key, u32> {
        let (cells, w) = (board.empty_mask(), board.cols());
        match self.game {
            CramGame::Cram => {
                let base = self.cram.comps.len();
                let (xor, n, _) = self.cram.push_components(cells, w);
                let comps = self.cram.comps.split_off(base);
                if n == 0 { Err(xor) } else { Ok((xor, comps)) }
            }
            CramGame::PushCram => {
                let mut parts = Vec::new();
                let t = split_parts(cells, w, &mut parts);
                let n = cancel_pairs(&mut parts);
                parts.truncate(n);
                if parts.is_empty() {
                    // Only the push is left to change anything: the value is mex{t}.
                    return Err(u32::from(t == 0));
                }
                Ok((t, parts.iter().map(|p| (p.k, p.kw)).collect()))
            }
        }
    }

    /// The node of a position `d` plies below the root (not the root itself).
    fn child(&mut self, board: &Board, d: u32) -> Result<Child, PlanError> {
        let key = match self.key(board) {
            Err(v) => return Ok(Child::Known(v)),
            Ok(key) => key,
        };
        if let Some(&id) = self.memo.get(&key) {
            return Ok(Child::Node(id));
        }
        let id = if d == self.depth {
            let unit = self.work.len();
            let moves = match self.game {
                CramGame::Cram => board.legal_moves().len(),
                CramGame::PushCram => board.vertical_moves().len() + 1,
            };
            self.work.push(UnitSpec {
                board: board.to_string(),
                cells: board.empty_count() as u32,
                moves: moves as u32,
            });
            self.add(PlanNode::Unit { unit })?
        } else {
            self.expand(board, d)?
        };
        self.memo.insert(key, id);
        Ok(Child::Node(id))
    }

    /// The node of a position's options (`d`: its plies below the root).
    fn expand(&mut self, board: &Board, d: u32) -> Result<usize, PlanError> {
        let mut known = Vec::new();
        let mut options = Vec::new();
        let moves = match self.game {
            CramGame::Cram => board.legal_moves(),
            CramGame::PushCram => {
                known.push(post_push_value(board));
                board.vertical_moves()
            }
        };
        for m in moves {
            let after = board
                .place(m)
                .map_err(|e| PlanError::Refused(format!("internal: a listed move did not fit: {e}")))?;
            match self.child(&after, d + 1)? {
                Child::Known(v) => known.push(v),
                Child::Node(id) => options.push(id),
            }
        }
        known.sort_unstable();
        known.dedup();
        options.sort_unstable();
        options.dedup();
        self.add(PlanNode::Options { known, options })
    }

    fn add(&mut self, node: PlanNode) -> Result<usize, PlanError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(PlanError::Refused(format!(
                "the plan would hold more than {MAX_NODES} positions: give a smaller --depth"
            )));
        }
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }
}
