//! Play mode without a window: the game record (positions from the start, with undo), the
//! computer's choice of move and the hint, all from a position's valued options.

use super::evaluate::OptionValue;
use crate::game::quote::quoted;
use crate::game::rules::paging::option_bound;
use crate::game::{Position, Ruleset};

/// Who plays against whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Opponent {
    /// One person steps through both sides.
    #[default]
    ByHand,
    /// The computer plays the second player (the one moving second from the start).
    ComputerSecond,
    /// The computer plays the first player.
    ComputerFirst,
}

impl Opponent {
    /// Whether the computer is to move after `moves` moves have been played.
    pub fn computer_to_move(self, moves: usize) -> bool {
        match self {
            Opponent::ByHand => false,
            Opponent::ComputerSecond => moves % 2 == 1,
            Opponent::ComputerFirst => moves.is_multiple_of(2),
        }
    }
}

/// Most options one step of a saved game is looked for among, by the bound known before
/// generating them ([`option_bound`]).
pub const MAX_STEP_OPTIONS: u64 = crate::game::rules::paging::ENUMERATE_LIMIT;
/// Options generated to check a saved game, over all its moves.
pub const MAX_GAME_WORK: u64 = 1 << 24;

/// A game being played: its positions from the start, and who plays.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GameRecord {
    /// The start, then the position after each move.
    pub positions: Vec<Position>,
    /// Who plays against the user.
    pub opponent: Opponent,
}

impl GameRecord {
    /// A game at `start`, nothing played yet, against `opponent`.
    pub fn new(start: Position, opponent: Opponent) -> Self {
        Self {
            positions: vec![start],
            opponent,
        }
    }

    /// The position the next move is made from.
    pub fn current(&self) -> Option<&Position> {
        self.positions.last()
    }

    /// Moves made so far.
    pub fn moves(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    /// Why this is not a game of `ruleset`: a position that is not one, or a step that is not a
    /// move. The one check of a saved game, on loading a session and in the inspector alike:
    /// a step whose options may number more than [`MAX_STEP_OPTIONS`] (a bound known before
    /// generating them), or a game whose steps together may need more than [`MAX_GAME_WORK`]
    /// options generated, is refused rather than checked for minutes.
    pub fn check(&self, ruleset: &Ruleset) -> Result<(), String> {
        for p in &self.positions {
            ruleset
                .check_position(p)
                .map_err(|e| format!("{} is not a position of {ruleset}: {e}", quoted(&p.to_string())))?;
        }
        let mut work = 0u64;
        for (i, step) in self.positions.windows(2).enumerate() {
            let bound = option_bound(ruleset, &step[0]);
            work = work.saturating_add(bound);
            if bound > MAX_STEP_OPTIONS || work > MAX_GAME_WORK {
                return Err(format!(
                    "move {} from {} has too many options to check (a saved game's moves may need at most {MAX_GAME_WORK} options generated, at most {MAX_STEP_OPTIONS} a move)",
                    i + 1,
                    quoted(&step[0].to_string())
                ));
            }
        }
        let mut options = Vec::new();
        for step in self.positions.windows(2) {
            options.clear();
            ruleset.options(&step[0], &mut options);
            if !options.contains(&step[1]) {
                return Err(format!(
                    "{} is not a move from {} in {ruleset}",
                    quoted(&step[1].to_string()),
                    quoted(&step[0].to_string())
                ));
            }
        }
        Ok(())
    }

    /// Records a move to `to` (an option of the current position, checked by the caller).
    pub fn play(&mut self, to: Position) {
        self.positions.push(to);
    }

    /// Whether the computer is to move now.
    pub fn computer_to_move(&self) -> bool {
        self.opponent.computer_to_move(self.moves())
    }

    /// Takes back the last move; against the computer, also its reply, so the person is to
    /// move again. Returns whether anything was taken back.
    pub fn undo(&mut self) -> bool {
        if self.moves() == 0 {
            return false;
        }
        self.positions.pop();
        if self.computer_to_move() && self.moves() > 0 {
            self.positions.pop();
        }
        true
    }

    /// The record as seed 002 writes it: `(11,27)→(11,5)→(1,5)→(1,3)→(1,0)`.
    pub fn text(&self) -> String {
        self.positions.iter().map(record_form).collect::<Vec<_>>().join("→")
    }
}

/// One position as a game record writes it: heaps in parentheses when there are several.
pub fn record_form(p: &Position) -> String {
    match p {
        Position::Heaps(h) if h.len() > 1 => format!("({p})"),
        _ => p.to_string(),
    }
}

/// The move the hint suggests: the first winning move, if any.
pub fn hint(options: &[OptionValue]) -> Option<usize> {
    options.iter().position(|o| o.winning)
}

/// The computer's move: the first winning move whenever one exists; otherwise (every move
/// loses against best play) the first move to an option of the largest value, which keeps the
/// most choices open for a mistake of the opponent. `None` when there is no move.
pub fn computer_choice(options: &[OptionValue]) -> Option<usize> {
    hint(options).or_else(|| {
        let best = options.iter().map(|o| o.grundy).max()?;
        options.iter().position(|o| o.grundy == best)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Ruleset;
    use crate::solver::Control;
    use crate::solver::search::Search;
    use crate::solver::{Evaluator, report};

    fn options(r: &Ruleset, p: &Position) -> Vec<OptionValue> {
        report::report(&mut Evaluator::new(), r, p, 10_000, &Control::new())
            .unwrap()
            .options
    }

    #[test]
    fn seed_002_sample_game_record() {
        let r: Ruleset = "euclid".parse().unwrap();
        let start = r.parse_position("11,27").unwrap();
        let mut g = GameRecord::new(start, Opponent::ByHand);
        for next in ["11,5", "1,5", "1,3", "1,0"] {
            let to = r.parse_position(next).unwrap();
            let mut legal = Vec::new();
            r.options(g.current().unwrap(), &mut legal);
            assert!(legal.contains(&to), "{next} is a move");
            g.play(to);
        }
        assert_eq!(g.text(), "(11,27)→(11,5)→(1,5)→(1,3)→(1,0)");
        assert_eq!(g.moves(), 4);
        assert!(g.undo());
        assert_eq!(g.text(), "(11,27)→(11,5)→(1,5)→(1,3)");
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_too() {
        let mut g = GameRecord::new(Position::heaps(&[3, 5]), Opponent::ComputerSecond);
        assert!(!g.undo());
        g.play(Position::heaps(&[3, 4]));
        assert!(g.computer_to_move());
        g.play(Position::heaps(&[1, 4]));
        assert!(!g.computer_to_move());
        assert!(g.undo());
        assert_eq!(g.positions, vec![Position::heaps(&[3, 5])]);
        // the computer moving first: undo stops before its opening move
        let mut g = GameRecord::new(Position::heaps(&[3, 5]), Opponent::ComputerFirst);
        g.play(Position::heaps(&[3, 4]));
        g.play(Position::heaps(&[2, 4]));
        assert!(g.undo());
        assert_eq!(g.moves(), 1);
    }

    #[test]
    fn the_computer_wins_from_every_n_position_against_any_play() {
        // Against every line of the opponent, the computer (moving first from an N-position,
        // or second from a P-position) makes the last move; checked by the plain search.
        fn computer_wins(r: &Ruleset, p: &Position, computer_moves: bool, plain: &mut Search) -> bool {
            let opts = options(r, p);
            if opts.is_empty() {
                return !computer_moves; // normal play: the player to move has lost
            }
            if computer_moves {
                let i = computer_choice(&opts).unwrap();
                assert_eq!(plain.value(&opts[i].position, &Control::new()).unwrap(), 0);
                computer_wins(r, &opts[i].position, false, plain)
            } else {
                opts.iter().all(|o| computer_wins(r, &o.position, true, plain))
            }
        }
        for rules in ["wythoff", "euclid", "nim"] {
            let r: Ruleset = rules.parse().unwrap();
            let mut plain = Search::plain(r.clone());
            for (a, b) in [(4, 6), (3, 5), (5, 2), (6, 6)] {
                let p = Position::heaps(&[a, b]);
                let first = plain.value(&p, &Control::new()).unwrap() != 0;
                assert!(computer_wins(&r, &p, first, &mut plain), "{rules} ({a},{b})");
            }
        }
    }

    #[test]
    fn without_a_winning_move_the_computer_still_moves() {
        let r: Ruleset = "wythoff".parse().unwrap();
        let opts = options(&r, &Position::heaps(&[3, 5]));
        assert_eq!(hint(&opts), None);
        let i = computer_choice(&opts).unwrap();
        assert_eq!(opts[i].grundy, opts.iter().map(|o| o.grundy).max().unwrap());
        assert_eq!(computer_choice(&[]), None);
    }

    #[test]
    fn fibonacci_hint_takes_the_smallest_zeckendorf_term() {
        let r: Ruleset = "fibonacci-nim".parse().unwrap();
        for n in 2..60u64 {
            let p = Position::fresh_fib(n);
            let opts = options(&r, &p);
            match crate::game::theory::fibonacci_nim_move(n, n - 1) {
                Some(k) => {
                    let i = hint(&opts).expect("a winning move");
                    assert!(
                        opts.iter()
                            .filter(|o| o.winning)
                            .any(|o| o.description == format!("take {k}"))
                    );
                    assert!(opts[i].winning);
                }
                None => assert_eq!(hint(&opts), None, "n = {n}"),
            }
        }
    }
}
