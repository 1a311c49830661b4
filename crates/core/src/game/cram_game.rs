//! Which Cram game a board is played under, in one type for the whole program: the board
//! editor, the solvers' reports, checkpoints and sessions all say `CramGame`.
//!
//! A position's phase (which dominoes may be placed now) is [`CramPhase`]: Cram has one,
//! Push Cram two (vertical dominoes or the button before the push, horizontal ones after).

/// The game played on a Cram board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum CramGame {
    /// Cram: dominoes in both directions.
    #[default]
    Cram,
    /// Push Cram: vertical dominoes before the button is pushed, horizontal ones after.
    PushCram,
}

impl CramGame {
    /// The ruleset's name in the expression language (`cram`, `push-cram`).
    pub fn name(self) -> &'static str {
        match self {
            CramGame::Cram => "cram",
            CramGame::PushCram => "push-cram",
        }
    }

    /// The game of a ruleset name, as [`CramGame::name`] writes it.
    pub fn from_name(name: &str) -> Option<CramGame> {
        [CramGame::Cram, CramGame::PushCram]
            .into_iter()
            .find(|g| g.name() == name)
    }
}

/// The phase of a Cram position: which dominoes may be placed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CramPhase {
    /// Cram: horizontal and vertical dominoes.
    Cram,
    /// Push Cram before the push: vertical dominoes, or push the button.
    PushBefore,
    /// Push Cram after the push: horizontal dominoes only, a sum of 0.07 games on the row runs.
    PushAfter,
}

impl CramPhase {
    /// The phase of a board of `game`, pushed or not.
    pub fn of(game: CramGame, pushed: bool) -> CramPhase {
        match (game, pushed) {
            (CramGame::Cram, _) => CramPhase::Cram,
            (CramGame::PushCram, false) => CramPhase::PushBefore,
            (CramGame::PushCram, true) => CramPhase::PushAfter,
        }
    }

    /// A few words for the status bar and the editor.
    pub fn describe(self) -> &'static str {
        match self {
            CramPhase::Cram => "Cram",
            CramPhase::PushBefore => "Push Cram before the push",
            CramPhase::PushAfter => "Push Cram after the push",
        }
    }

    /// The game this phase belongs to.
    pub fn game(self) -> CramGame {
        match self {
            CramPhase::Cram => CramGame::Cram,
            CramPhase::PushBefore | CramPhase::PushAfter => CramGame::PushCram,
        }
    }
}

/// Serde for a [`CramGame`] written by its ruleset name (`"cram"`, `"push-cram"`), as the
/// checkpoint header has it.
pub mod by_name {
    use super::CramGame;

    /// Writes the game's ruleset name.
    pub fn serialize<S: serde::Serializer>(game: &CramGame, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(game.name())
    }

    /// Reads a ruleset name; an unknown one is an error.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<CramGame, D::Error> {
        let name = <String as serde::Deserialize>::deserialize(d)?;
        CramGame::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown Cram game {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Ruleset;

    #[test]
    fn a_ruleset_names_its_cram_game_however_it_is_spelt() {
        let game = |text: &str| text.parse::<Ruleset>().unwrap().cram_game();
        assert_eq!(game("cram"), Some(CramGame::Cram));
        assert_eq!(game("push-cram"), Some(CramGame::PushCram));
        assert_eq!(game("push(cram-v,cram-h)"), Some(CramGame::PushCram));
        assert_eq!(game(" push( cram-v , cram-h ) "), Some(CramGame::PushCram));
        assert_eq!(game("push(cram-h,cram-v)"), None);
        assert_eq!(game("cram-v"), None);
        assert_eq!(game("nim"), None);
        for g in [CramGame::Cram, CramGame::PushCram] {
            assert_eq!(CramGame::from_name(g.name()), Some(g));
            assert_eq!(game(g.name()), Some(g));
        }
    }
}
