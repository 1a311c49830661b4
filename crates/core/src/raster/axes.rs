//! What the axes of a map say, for the window and the figures alike: the titles of the two
//! axes (the heaps on them, as the ruleset names them) and where tick labels go (at cell
//! centres, on round values, far enough apart that no two labels overlap).

use crate::game::{Layout, Ruleset, Shape};

/// The titles of a map's axes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisTitles {
    /// The vertical axis (rows, growing upwards).
    pub rows: String,
    /// The horizontal axis (columns, growing to the right).
    pub cols: String,
    /// For a slice, the positions it shows, e.g. `(1, a, b)`.
    pub caption: Option<String>,
}

impl AxisTitles {
    /// The titles of the map of `ruleset` shown in `layout`.
    pub fn of(ruleset: &Ruleset, layout: &Layout) -> AxisTitles {
        match layout {
            Layout::Slice(fixed) => {
                let mut free = ["a", "b"].into_iter();
                let parts: Vec<String> = fixed
                    .iter()
                    .map(|x| match x {
                        Some(v) => v.to_string(),
                        None => free.next().unwrap_or("?").to_string(),
                    })
                    .collect();
                AxisTitles {
                    rows: "a".into(),
                    cols: "b".into(),
                    caption: Some(format!("({})", parts.join(", "))),
                }
            }
            Layout::Plain if ruleset.shape() == Shape::Fibonacci => AxisTitles {
                rows: "n (tokens left)".into(),
                cols: "q (most that may be taken)".into(),
                caption: None,
            },
            Layout::Plain if ruleset.shape() == Shape::Sum => AxisTitles {
                rows: "a (first game's heap)".into(),
                cols: "b (second game's heap)".into(),
                caption: None,
            },
            Layout::Plain => AxisTitles {
                rows: "a".into(),
                cols: "b".into(),
                caption: None,
            },
        }
    }
}

/// The cells labelled along an axis showing cell coordinates `[lo, hi)` at `px_per_cell`
/// pixels a cell, whose labels need `extent(k)` pixels along the axis (plus `gap`): multiples
/// of a round step, at least one label's extent apart, inside `[0, limit)`.
pub fn ticks(lo: f64, hi: f64, limit: u64, px_per_cell: f64, gap: f64, extent: &dyn Fn(u64) -> f64) -> Vec<u64> {
    if hi <= lo || hi.is_nan() || lo.is_nan() || px_per_cell <= 0.0 {
        return Vec::new();
    }
    let first = lo.max(0.0).floor() as u64;
    let last = (hi.ceil().max(0.0) as u64).min(limit);
    if first >= last {
        return Vec::new();
    }
    // the widest label is that of the largest number shown
    let widest = extent(last.saturating_sub(1)).max(extent(first));
    let step = crate::raster::nice_step((widest + gap) / px_per_cell).max(1.0) as u64;
    let mut out = Vec::new();
    let mut k = first.div_ceil(step) * step;
    while k < last {
        let centre = k as f64 + 0.5;
        if centre >= lo && centre <= hi {
            out.push(k);
        }
        k += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_name_the_heaps() {
        let t = AxisTitles::of(&"zeruclid".parse().unwrap(), &Layout::parse_slice("1,_,_").unwrap());
        assert_eq!(t.caption.as_deref(), Some("(1, a, b)"));
        let t = AxisTitles::of(&"euclid3".parse().unwrap(), &Layout::parse_slice("_,4,_").unwrap());
        assert_eq!(t.caption.as_deref(), Some("(a, 4, b)"));
        let t = AxisTitles::of(&"fibonacci-nim".parse().unwrap(), &Layout::Plain);
        assert!(t.rows.starts_with('n') && t.cols.starts_with('q'));
    }

    /// Labels of 7 px per digit: neighbouring labels never overlap, and each sits at a cell
    /// centre inside the view.
    #[test]
    fn tick_labels_never_overlap() {
        let extent = |k: u64| 7.0 * k.to_string().len() as f64;
        for (lo, hi, ppc) in [
            (0.0, 100.0, 8.0),
            (-3.0, 4100.0, 0.17),
            (990.0, 1010.0, 50.0),
            (0.0, 65536.0, 0.01),
        ] {
            let t = ticks(lo, hi, 65536, ppc, 6.0, &extent);
            assert!(!t.is_empty(), "{lo}..{hi}");
            for w in t.windows(2) {
                let apart = (w[1] - w[0]) as f64 * ppc;
                assert!(
                    apart >= (extent(w[0]) + extent(w[1])) / 2.0 + 6.0,
                    "{w:?} at {ppc} px a cell"
                );
            }
            assert!(t.iter().all(|&k| k as f64 + 0.5 >= lo && k as f64 + 0.5 <= hi));
        }
    }
}
