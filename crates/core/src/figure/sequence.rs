//! The sequence figure: G(0..n) as rows of coloured cells, a row a multiple of the period.

use super::shapes::{Cells, Element, Text};
use super::text::{Anchor, Face};
use crate::raster::{ColorMode, CompareWith, Legend, LegendItem, LegendSpec, MarksShown, Overlays, nice_step};
use crate::solver::Control;
use crate::solver::sequence::Sequence;
use std::collections::HashSet;

use super::frame::*;
use super::ink;
use super::spec::*;

/// The sequence G(0..n) as rows of coloured cells.
pub(super) fn sequence_figure(
    spec: &FigureSpec,
    n: u64,
    title: &mut String,
    metadata: &mut Vec<(String, String)>,
    control: &Control,
) -> Result<(Vec<Element>, Frame), FigureError> {
    if n == 0 {
        return Err(FigureError::EmptyRegion("G(0..0)".into()));
    }
    metadata.push(("nimscope.region".into(), format!("heaps n in [0, {n})")));
    let seq = crate::solver::sequence::sequence(&spec.ruleset, n, control)?;
    if let (Some(p), "") = (seq.periodicity, spec.style.title.as_str()) {
        *title = format!("{title}; period {} from n = {}", p.period, p.preperiod);
    }
    draw_sequence(spec, &seq, title)
}

/// Heaps per row of a sequence figure: a multiple of a short period, so periodic values line
/// up in columns, else 50.
pub(super) fn sequence_row_len(seq: &Sequence) -> u64 {
    match seq.periodicity {
        Some(p) if (1..=60).contains(&p.period) => p.period * 30u64.div_ceil(p.period),
        _ => 50,
    }
}

pub(super) fn draw_sequence(
    spec: &FigureSpec,
    seq: &Sequence,
    title: &str,
) -> Result<(Vec<Element>, Frame), FigureError> {
    let n = seq.values.len() as u64;
    let per_row = sequence_row_len(seq).min(n);
    let rows = n.div_ceil(per_row);
    let max = seq.values.iter().flatten().copied().max().unwrap_or(0);
    let period_mark = seq.periodicity.filter(|p| p.preperiod > 0 && p.preperiod < n);
    let mut legend = sequence_legend(spec.color, max);
    if let Some(p) = period_mark {
        legend.items.push(LegendItem::Outline {
            label: format!("n = {}, where the period {} starts", p.preperiod, p.period),
            color: crate::raster::colors::PERIOD_MARK,
        });
    }
    let frame = Frame::plan(spec, rows, per_row, title, Some(&legend))?;
    let mut out = frame.title(title);
    let cell = f64::from(frame.content_w) / per_row as f64;
    let colors: Vec<[u8; 4]> = (0..rows * per_row)
        .map(|heap| match seq.values.get(heap as usize) {
            Some(v) => spec.color.color(*v, max, None),
            None => ink::CLEAR,
        })
        .collect();
    let shown: HashSet<[u8; 4]> = colors.iter().copied().collect();
    out.push(Element::Group {
        name: "map",
        clip: Some(frame.content_rect()),
        shapes: vec![Element::Cells(Cells {
            origin: (f64::from(frame.left), f64::from(frame.top)),
            block: (cell, f64::from(frame.content_h) / rows as f64),
            cols: per_row as usize,
            rows: rows as usize,
            colors,
        })],
    });
    out.extend(frame.frame());
    if let Some(p) = period_mark {
        // Outline the first heap of the periodic part.
        let (r, c) = (p.preperiod / per_row, p.preperiod % per_row);
        let x0 = (f64::from(frame.left) + c as f64 * cell).floor();
        let y0 = (f64::from(frame.top) + r as f64 * cell).floor();
        let side = cell.max(3.0).floor();
        out.extend(Element::outline(
            x0,
            y0,
            x0 + side - 1.0,
            y0 + side - 1.0,
            (side / 6.0).floor().max(1.0),
            crate::raster::colors::PERIOD_MARK,
        ));
    }
    if spec.style.axes {
        let px = frame.label_px;
        let step = nice_step(f64::from(px) * 2.0 / cell).max(1.0) as u64;
        for r in (0..rows).step_by(step as usize) {
            let y = f64::from(frame.top) + (r as f64 + 0.5) * cell;
            out.push(Element::Text(Text {
                at: (f64::from(frame.left as f32 - px * 0.4), y),
                text: format!("n = {}", r * per_row),
                face: Face::Monospace,
                size: px * 0.8,
                color: ink::TEXT,
                anchor: Anchor::RightCenter,
            }));
        }
    }
    if spec.style.legend {
        legend.retain_shown(&|c| shown.contains(&c));
        out.push(frame.legend(&legend));
    }
    Ok((out, frame))
}

/// The legend of a sequence figure (one cell a heap: nothing is pooled).
pub(super) fn sequence_legend(mode: ColorMode, max: u32) -> Legend {
    Legend::of_map(&LegendSpec {
        mode,
        max,
        clipped: None,
        pooled: false,
        pooling: crate::raster::Pooling::Least,
        not_computed: false,
        not_a_position: false,
        // kept only if the figure draws the colours (`retain_shown`)
        loopy: true,
        compare: &CompareWith::Nothing,
        overlays: Overlays::NONE,
        overlays_hidden: false,
        marks: MarksShown::default(),
    })
}
