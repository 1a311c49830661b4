//! P-positions predicted by the papers' theorems, as cell predicates, so the map can draw what
//! a theorem predicts and colour where computation disagrees.

use super::theory;

/// A theorem's prediction of the P-positions of a two-heap game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Prediction {
    /// seed 003 Prop 3.1.3: Wythoff's P-positions are the Wythoff pairs.
    WythoffPairs,
    /// seed 003 Thm 3.1.6: P-positions of push(nim,euclid0).
    NimPushEuclid,
    /// seed 003 Prop 4.1.1: push(nim,wythoff).
    NimPushWythoff,
    /// seed 003 Prop 4.1.2: push(euclid0,nim) (stated for a, b ≥ 1).
    Euclid0PushNim,
    /// seed 003 Prop 4.1.3: push(wythoff,nim).
    WythoffPushNim,
    /// seed 002: Euclid's P-positions are those with 1 < b/a < φ (a, b ≥ 1).
    EuclidGoldenRatio,
}

impl Prediction {
    /// Every prediction, in the order they are listed to the user.
    pub const ALL: [Prediction; 6] = [
        Prediction::WythoffPairs,
        Prediction::NimPushEuclid,
        Prediction::NimPushWythoff,
        Prediction::Euclid0PushNim,
        Prediction::WythoffPushNim,
        Prediction::EuclidGoldenRatio,
    ];

    /// Whether the theorem predicts (a, b) to be a P-position; `None` outside its domain.
    pub fn is_p(self, a: u64, b: u64) -> Option<bool> {
        Some(match self {
            Prediction::WythoffPairs => theory::is_wythoff_p(a, b),
            Prediction::NimPushEuclid => theory::nim_push_euclid_p_thm316(a, b),
            Prediction::NimPushWythoff => theory::prop411_p(a, b),
            Prediction::Euclid0PushNim if a == 0 || b == 0 => return None,
            Prediction::Euclid0PushNim => theory::prop412_p(a.min(b), a.max(b)),
            Prediction::WythoffPushNim => theory::prop413_p(a, b),
            Prediction::EuclidGoldenRatio if a == 0 || b == 0 => return None,
            Prediction::EuclidGoldenRatio => !theory::euclid_first_player_wins(a, b),
        })
    }

    /// The ruleset the prediction is about.
    pub fn ruleset(self) -> &'static str {
        match self {
            Prediction::WythoffPairs => "wythoff",
            Prediction::NimPushEuclid => "push(nim,euclid0)",
            Prediction::NimPushWythoff => "push(nim,wythoff)",
            Prediction::Euclid0PushNim => "push(euclid0,nim)",
            Prediction::WythoffPushNim => "push(wythoff,nim)",
            Prediction::EuclidGoldenRatio => "euclid",
        }
    }

    /// The prediction's name with its source, as shown to the user.
    pub fn label(self) -> &'static str {
        match self {
            Prediction::WythoffPairs => "Wythoff pairs (seed 003 Prop 3.1.3)",
            Prediction::NimPushEuclid => "push(nim,euclid0) (seed 003 Thm 3.1.6)",
            Prediction::NimPushWythoff => "push(nim,wythoff) (seed 003 Prop 4.1.1)",
            Prediction::Euclid0PushNim => "push(euclid0,nim) (seed 003 Prop 4.1.2)",
            Prediction::WythoffPushNim => "push(wythoff,nim) (seed 003 Prop 4.1.3)",
            Prediction::EuclidGoldenRatio => "euclid: b/a < phi (seed 002)",
        }
    }
}
