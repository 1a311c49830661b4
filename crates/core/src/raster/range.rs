//! The range of the Grundy colours, shared by the window and the figures: automatic (a high
//! quantile of the region's values, so a few huge values, such as Euclid's G(1, b) = b, do not
//! squeeze every other value into one colour) or a fixed top the user typed. Values above the
//! top share the top colour; the legend says so ([`RangeTop::clipped`]). The logarithmic scale
//! is a colour mode of its own ([`super::ColorMode::GrundyLog`]).

use crate::solver::tiles::ValueCounts;

/// The fraction of a region's values at or below the automatic top.
pub const AUTO_QUANTILE: f64 = 0.99;

/// How the top of the Grundy colours is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ColorRange {
    /// The [`AUTO_QUANTILE`] quantile of the region's values.
    #[default]
    Auto,
    /// This top, whatever the values.
    Fixed(u32),
}

/// The top of the colours over a region, and how many of its values lie above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RangeTop {
    /// The value drawn in the top colour (values above it are clipped to it).
    pub top: u32,
    /// Values of the region above `top` (drawn in the top colour).
    pub clipped: u64,
    /// Values counted.
    pub total: u64,
}

impl ColorRange {
    /// The top over a region whose values are `counts`.
    pub fn top(self, counts: &ValueCounts) -> RangeTop {
        let top = match self {
            ColorRange::Auto => counts.quantile(AUTO_QUANTILE).unwrap_or(0),
            ColorRange::Fixed(t) => t,
        };
        RangeTop {
            top,
            clipped: counts.above(top),
            total: counts.total(),
        }
    }

    /// How the legend and the View menu name it.
    pub fn describe(self) -> String {
        match self {
            ColorRange::Auto => format!("automatic ({}% of the values below the top)", AUTO_QUANTILE * 100.0),
            ColorRange::Fixed(t) => format!("fixed top {t}"),
        }
    }
}

impl RangeTop {
    /// The legend's note on the clipped values, if any.
    pub fn clipped_note(&self) -> Option<String> {
        (self.clipped > 0).then(|| {
            let pct = self.clipped as f64 * 100.0 / self.total.max(1) as f64;
            format!(
                "G > {} ({}): the top colour",
                self.top,
                if pct < 0.1 {
                    format!("{} cells", self.clipped)
                } else {
                    format!("{pct:.1}% of the cells")
                }
            )
        })
    }
}

/// Where value `v` lies on a linear (`log` false) or logarithmic scale from 0 to `top`, in
/// [0, 1]; values above the top are 1.
pub fn position(v: u32, top: u32, log: bool) -> f32 {
    if top == 0 {
        return 0.0;
    }
    let v = v.min(top);
    if log {
        ((f64::from(v)).ln_1p() / f64::from(top).ln_1p()) as f32
    } else {
        (f64::from(v) / f64::from(top)) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_automatic_top_ignores_a_few_huge_values() {
        // Euclid-like: most values small, a row of huge ones (1 cell in 200)
        let values = (0..20_000u32).map(|i| if i % 200 == 0 { 10_000 + i } else { i % 37 });
        let counts = ValueCounts::of(values);
        let t = ColorRange::Auto.top(&counts);
        assert_eq!(t.top, 36);
        assert_eq!(t.clipped, 100);
        assert!(t.clipped_note().unwrap().contains("0.5% of the cells"));
        let f = ColorRange::Fixed(40_000).top(&counts);
        assert_eq!((f.top, f.clipped), (40_000, 0));
        assert_eq!(f.clipped_note(), None);
    }

    #[test]
    fn positions_run_from_0_to_1() {
        assert_eq!(position(0, 0, false), 0.0);
        assert_eq!(position(5, 10, false), 0.5);
        assert_eq!(position(50, 10, false), 1.0);
        assert_eq!(position(10, 10, true), 1.0);
        // log: 3 of 15 is halfway (ln 4 / ln 16)
        assert!((position(3, 15, true) - 0.5).abs() < 1e-6);
    }
}
