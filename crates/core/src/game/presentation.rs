//! How a ruleset is shown: as a map of cells (a, b), as a sequence G(0), G(1), …, or as a Cram
//! board, and which position each cell of a map stands for. The one answer to "map, sequence
//! or board?": the command line's `grid` and `seq` and the solvers' tile source ask
//! [`Presentation::of`]; the window (its centre, the map jobs it gives the worker, its exports)
//! and a session's figure ask [`Presentation::shown`], which adds the Cram board tab
//! ([`CentralTab`]) on top, so they never disagree.

use super::catalog::{Ruleset, Shape};
use super::position::{Position, parse_number};
use crate::game::quote::quoted;

/// A cell of a map: row `a` (drawn upwards), column `b` (drawn to the right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, drawn upwards (the first heap of a plain map).
    pub a: u64,
    /// Column, drawn to the right (the second heap of a plain map).
    pub b: u64,
}

impl Cell {
    /// The cell at row `a`, column `b`.
    pub const fn new(a: u64, b: u64) -> Self {
        Self { a, b }
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.a, self.b)
    }
}

/// Which position each cell of a map stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Cell (a, b) is the position with heaps (a, b), or Fibonacci Nim's (n, q) = (a, b), or
    /// the sum position `a+b` of a sum of two one-heap rulesets.
    Plain,
    /// A slice of a ruleset on more heaps: `None` entries are filled with (a, b) in order,
    /// e.g. `[Some(1), None, None]` is Zeruclid (1, a, b).
    Slice(Vec<Option<u64>>),
}

impl Layout {
    /// Parses `1,_,_` (exactly two `_`).
    pub fn parse_slice(text: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for part in text.split(',') {
            let t = part.trim();
            if t == "_" {
                out.push(None);
            } else {
                out.push(Some(parse_number(t).map_err(|e| format!("slice: {e}"))?));
            }
        }
        if out.iter().filter(|x| x.is_none()).count() != 2 {
            return Err(format!(
                "a slice has exactly two '_' (the row and column heaps), not {}",
                quoted(text)
            ));
        }
        Ok(Layout::Slice(out))
    }

    /// The layout a slice text gives: plain when the text is empty.
    pub fn from_slice_text(text: &str) -> Result<Self, String> {
        match text.trim() {
            "" => Ok(Layout::Plain),
            s => Layout::parse_slice(s),
        }
    }

    /// The position at `cell` under this layout.
    pub fn position(&self, ruleset: &Ruleset, cell: Cell) -> Position {
        let Cell { a, b } = cell;
        match self {
            Layout::Plain => match ruleset.shape() {
                Shape::Fibonacci => Position::Fib { n: a, q: b },
                Shape::Sum => Position::Sum(Box::new(Position::Heaps(vec![a])), Box::new(Position::Heaps(vec![b]))),
                _ => Position::Heaps(vec![a, b]),
            },
            Layout::Slice(t) => {
                let mut free = [a, b].into_iter();
                Position::Heaps(
                    t.iter()
                        .map(|x| x.unwrap_or_else(|| free.next().unwrap_or(0)))
                        .collect(),
                )
            }
        }
    }

    /// The cell showing position `p` on a map of `ruleset` with this layout (the reverse of
    /// [`Layout::position`]); `None` when `p` is not a cell of that map.
    pub fn cell_of(&self, ruleset: &Ruleset, p: &Position) -> Option<Cell> {
        let one = |p: &Position| match p {
            Position::Heaps(h) if h.len() == 1 => Some(h[0]),
            _ => None,
        };
        let cell = match (self, p) {
            (Layout::Plain, Position::Fib { n, q }) if ruleset.shape() == Shape::Fibonacci => Cell::new(*n, *q),
            (Layout::Plain, Position::Sum(a, b)) if ruleset.shape() == Shape::Sum => Cell::new(one(a)?, one(b)?),
            (Layout::Plain, Position::Heaps(h)) if h.len() == 2 => Cell::new(h[0], h[1]),
            (Layout::Slice(t), Position::Heaps(h)) if h.len() == t.len() => {
                let mut free = Vec::with_capacity(2);
                for (fixed, &x) in t.iter().zip(h) {
                    match fixed {
                        Some(f) if *f != x => return None,
                        Some(_) => {}
                        None => free.push(x),
                    }
                }
                match free[..] {
                    [a, b] => Cell::new(a, b),
                    _ => return None,
                }
            }
            _ => return None,
        };
        (self.position(ruleset, cell) == *p).then_some(cell)
    }

    /// The slice as the user types it (`1,_,_`); empty for the plain layout.
    pub fn slice_text(&self) -> String {
        match self {
            Layout::Plain => String::new(),
            Layout::Slice(t) => t
                .iter()
                .map(|x| x.map_or_else(|| "_".to_string(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// Which tab of the window's centre is chosen: the value map (whatever the ruleset shows: a
/// map, a sequence, ...) or the Cram board editor. Saved in sessions (`tab:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum CentralTab {
    /// What the ruleset shows ([`Presentation::of`]).
    #[default]
    ValueMap,
    /// The Cram board editor, whatever the ruleset.
    CramBoard,
}

/// How a ruleset, with a layout, is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presentation {
    /// A map of the cells (a, b), each the position the layout gives.
    Map(Layout),
    /// The values G(0), G(1), … of one heap.
    Sequence,
    /// A Cram board (the board editor; a figure of the board).
    Board,
    /// Positions of three or more heaps: a map shows a slice such as `1,_,_`, to be chosen.
    NeedsSlice,
    /// No picture: the positions are examined one at a time (the reason says why).
    PositionsOnly(String),
}

impl Presentation {
    /// How `ruleset` is shown under `layout` (the plain layout unless a slice was chosen).
    pub fn of(ruleset: &Ruleset, layout: &Layout) -> Presentation {
        let shape = ruleset.shape();
        match layout {
            Layout::Slice(_)
                if matches!(shape, Shape::AnyHeaps | Shape::ThreeHeaps) || is_misere_collection(ruleset) =>
            {
                Presentation::Map(layout.clone())
            }
            Layout::Slice(_) => Presentation::PositionsOnly(format!(
                "{ruleset} has no slices: a slice fixes some heaps of a game on three or more heaps"
            )),
            Layout::Plain => match shape {
                Shape::Board => Presentation::Board,
                Shape::OneHeap => Presentation::Sequence,
                Shape::TwoHeaps | Shape::AnyHeaps | Shape::Fibonacci => Presentation::Map(Layout::Plain),
                Shape::ThreeHeaps => Presentation::NeedsSlice,
                Shape::Sum => match ruleset.base().0 {
                    Ruleset::Sum(x, y) if has_sequence(x) && has_sequence(y) => Presentation::Map(Layout::Plain),
                    _ => Presentation::PositionsOnly(format!(
                        "{ruleset} has no map: the map of a sum shows two games of one heap each, \
                         heap a of the first beside heap b of the second"
                    )),
                },
            },
        }
    }

    /// What the window's centre and a session's figure show for `ruleset` under `layout` with
    /// `tab` chosen: the board on the Cram board tab, else [`Presentation::of`]. The one
    /// decision the window's view, its map jobs, its exports and `nimscope export` share.
    pub fn shown(ruleset: &Ruleset, layout: &Layout, tab: CentralTab) -> Presentation {
        match tab {
            CentralTab::CramBoard => Presentation::Board,
            CentralTab::ValueMap => Presentation::of(ruleset, layout),
        }
    }

    /// Why there is no map, in words that name no command or button; `None` for a map.
    pub fn why_no_map(&self, ruleset: &Ruleset) -> Option<String> {
        match self {
            Presentation::Map(_) => None,
            Presentation::Sequence => Some(format!(
                "{ruleset} is played on one heap: its values form a sequence, not a map"
            )),
            Presentation::Board => Some(format!("{ruleset} is played on a board, not on heaps")),
            Presentation::NeedsSlice => Some(format!(
                "{ruleset} is played on three or more heaps: a map shows a slice such as 1,_,_"
            )),
            Presentation::PositionsOnly(why) => Some(why.clone()),
        }
    }

    /// The map's layout, if this is a map.
    pub fn layout(&self) -> Option<&Layout> {
        match self {
            Presentation::Map(l) => Some(l),
            _ => None,
        }
    }
}

/// Whether `ruleset` is a one-heap game under misère play, whose collections of heaps are
/// positions (not sums: their misère values do not add): its plain layout is the sequence of
/// one heap, a slice such as `_,_` or `3,_,_` the map of collections.
pub fn is_misere_collection(ruleset: &Ruleset) -> bool {
    matches!(ruleset, Ruleset::Misere(inner) if inner.shape() == Shape::OneHeap)
}

/// Whether G(n) of one heap (for Fibonacci Nim: of a fresh pile of n) is defined: the
/// sequences of `seq` and of the one-heap view.
pub fn has_sequence(ruleset: &Ruleset) -> bool {
    matches!(ruleset.shape(), Shape::OneHeap | Shape::AnyHeaps | Shape::Fibonacci)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(r: &str, slice: &str) -> Presentation {
        Presentation::of(&r.parse().unwrap(), &Layout::from_slice_text(slice).unwrap())
    }

    #[test]
    fn every_shape_has_one_presentation() {
        assert_eq!(of("nim", ""), Presentation::Map(Layout::Plain));
        assert_eq!(of("fibonacci-nim", ""), Presentation::Map(Layout::Plain));
        assert_eq!(of("octal(0.07)", ""), Presentation::Sequence);
        assert_eq!(of("cram", ""), Presentation::Board);
        assert_eq!(of("euclid3", ""), Presentation::NeedsSlice);
        assert!(matches!(of("euclid3", "1,_,_"), Presentation::Map(Layout::Slice(_))));
        assert!(matches!(of("wythoff", "1,_,_"), Presentation::PositionsOnly(_)));
        // collections of a misère one-heap game: the sequence, or a slice's map
        assert_eq!(of("misere(octal(0.07))", ""), Presentation::Sequence);
        assert!(matches!(
            of("misere(octal(0.07))", "_,_"),
            Presentation::Map(Layout::Slice(_))
        ));
        assert!(matches!(
            of("misere(sub(1,2))", "3,_,_"),
            Presentation::Map(Layout::Slice(_))
        ));
        assert!(matches!(of("octal(0.07)", "_,_"), Presentation::PositionsOnly(_)));
        assert_eq!(of("sum(nim,sub(1,2))", ""), Presentation::Map(Layout::Plain));
        assert!(matches!(of("sum(wythoff,nim)", ""), Presentation::PositionsOnly(_)));
    }

    #[test]
    fn the_board_tab_shows_the_board_whatever_the_ruleset() {
        for (rules, slice) in [("nim", ""), ("octal(0.07)", ""), ("euclid3", ""), ("zeruclid", "1,_,_")] {
            let r: Ruleset = rules.parse().unwrap();
            let layout = Layout::from_slice_text(slice).unwrap();
            assert_eq!(
                Presentation::shown(&r, &layout, CentralTab::CramBoard),
                Presentation::Board
            );
            assert_eq!(
                Presentation::shown(&r, &layout, CentralTab::ValueMap),
                Presentation::of(&r, &layout)
            );
        }
    }

    #[test]
    fn cells_round_trip_through_the_layout() {
        for (rules, slice) in [
            ("wythoff", ""),
            ("fibonacci-nim", ""),
            ("sum(tag(3),sub(1,2))", ""),
            ("zeruclid", "1,_,_"),
            ("euclid3", "_,4,_"),
            ("cdn", "_,4,_,2"),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let layout = Layout::from_slice_text(slice).unwrap();
            for (a, b) in [(0, 0), (3, 5), (7, 2)] {
                let p = layout.position(&r, Cell::new(a, b));
                assert_eq!(layout.cell_of(&r, &p), Some(Cell::new(a, b)), "{rules}");
            }
            assert_eq!(Layout::from_slice_text(&layout.slice_text()).unwrap(), layout);
        }
        let r: Ruleset = "zeruclid".parse().unwrap();
        let slice = Layout::parse_slice("1,_,_").unwrap();
        assert_eq!(slice.cell_of(&r, &Position::Heaps(vec![2, 3, 4])), None);
        assert_eq!(Layout::Plain.cell_of(&r, &Position::Heaps(vec![2, 3, 4])), None);
        let r: Ruleset = "push(nim,euclid0)".parse().unwrap();
        assert_eq!(
            Layout::Plain.cell_of(&r, &r.parse_position("pushed(2,4)").unwrap()),
            None
        );
    }
}
