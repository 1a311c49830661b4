//! What each kind of job computes on a lane's thread: the map's fill (tile batches as the
//! source's stages finish), a sequence, a Cram board, a position's report, a misère quotient,
//! an export, a CSV file.

use std::sync::Arc;

use nimscope_core::figure::write_figure;
use nimscope_core::raster::CompareWith;
use nimscope_core::solver::cram::progressive::cram_report_progressive;
use nimscope_core::solver::misere_quotient;
use nimscope_core::solver::sequence::sequence_with_quotient;
use nimscope_core::solver::tiles::{CellRect, Compare, PoolJob, TileSource};
use nimscope_core::solver::{Control, SolveError};

use super::lane_budget::LaneState;
use super::protocol::{JobError, JobSpec, MapJob, Output, TileBatch};

/// Runs one job; `emit` takes what a job answers before its last answer (the map's batches,
/// the Cram lane's partial reports).
pub(super) fn run(
    spec: &JobSpec,
    state: &mut LaneState,
    control: &Control,
    emit: &mut dyn FnMut(Output),
) -> Result<Output, JobError> {
    Ok(match spec {
        JobSpec::Map(job) => run_map(job, state, control, emit)?,
        JobSpec::Sequence { ruleset, n } => Output::Sequence(Arc::new(sequence_with_quotient(ruleset, *n, control)?)),
        JobSpec::CramBoard { board, variant } => Output::Cram(Arc::new(cram_report_progressive(
            board,
            *variant,
            &mut state.cram,
            control,
            |report| emit(Output::CramProgress(Arc::new(report.clone()))),
        )?)),
        JobSpec::Position {
            ruleset,
            position,
            limit,
        } => Output::Position(Arc::new(nimscope_core::solver::report::report(
            &mut state.evaluator,
            ruleset,
            position,
            *limit,
            control,
        )?)),
        JobSpec::Quotient { code, heaps } => Output::Quotient(Arc::new(misere_quotient::compute_with(
            code,
            *heaps,
            control,
            &mut |stage| emit(Output::QuotientStage(stage.clone())),
        )?)),
        JobSpec::Export { spec, path, known } => {
            let figure = nimscope_core::figure::make_figure_with(spec, known.as_deref(), control)?;
            control.check()?;
            write_figure(&figure, path, control)?;
            Output::Exported {
                path: path.clone(),
                width: figure.width(),
                height: figure.height(),
                from_map: figure.from_map,
            }
        }
        JobSpec::Csv {
            ruleset,
            layout,
            rows,
            cols,
            path,
            known,
        } => {
            // the text: at most about 6 bytes a cell (values below 100 000 and a comma)
            let cells = (rows.end - rows.start).saturating_mul(cols.end - cols.start);
            control.reserve("the CSV text", cells.saturating_mul(6))?;
            let (bytes, computed) = match known {
                // what the map holds is written, only the rest computed
                Some(k) => k.csv(ruleset, layout, control)?,
                None => (
                    nimscope_core::solver::grid::grid_csv(ruleset, layout, rows.clone(), cols.clone(), control)?,
                    cells,
                ),
            };
            control.check()?;
            nimscope_core::files::write_atomic(path, &bytes)
                .map_err(|e| JobError::Failed(format!("could not write {}: {e}", path.display())))?;
            Output::CsvWritten {
                path: path.clone(),
                rows: rows.end - rows.start,
                cols: cols.end - cols.start,
                computed,
            }
        }
    })
}

/// Fills the view of a map job, sending each stage's tiles as a batch; the answer is the last
/// batch (with the view's largest value over all of it).
fn run_map(
    job: &MapJob,
    state: &mut LaneState,
    control: &Control,
    emit: &mut dyn FnMut(Output),
) -> Result<Output, JobError> {
    let rule = job.color.map_rule(&job.ruleset, &job.layout, &job.view, job.pooling);
    let outcomes = rule == nimscope_core::solver::tiles::KeyRule::Outcome;
    let source = |slot: &mut Option<TileSource>, ruleset, outcomes| {
        if !slot.as_ref().is_some_and(|s| s.serves(ruleset, &job.layout, outcomes)) {
            *slot = Some(TileSource::new_for(ruleset, &job.layout, outcomes));
        }
    };
    source(&mut state.tiles, &job.ruleset, outcomes);
    let mut pool = PoolJob::new(job.level, rule, job.view.clone(), job.tiles.clone());
    match &job.scale {
        Some(scale) => pool = pool.count_over(scale.clone()),
        // colours without a scale count nothing (a count is a bucket a cell)
        None if !job.color.needs_scale() => pool = pool.count_over(CellRect::new(0..0, 0..0)),
        None => {}
    }
    control.reserve("the map's pooled cells", PoolJob::bytes(job.level, &job.view))?;
    let region = pool.region().clone();
    let differ = job.color == nimscope_core::raster::ColorMode::Difference;
    // the two sources share the budget: each fills within what the other leaves
    let leaving = |other: &Option<TileSource>| {
        control.with_budget_at_most(
            control
                .memory_budget()
                .saturating_sub(other.as_ref().map_or(0, TileSource::bytes)),
        )
    };
    if let (true, CompareWith::Ruleset(other)) = (differ, &job.compare) {
        source(&mut state.compare, other, false);
        let room = leaving(&state.tiles);
        if let Some(c) = state.compare.as_mut() {
            c.fill(&region, &room, &mut |_, _| Ok(()))?;
        }
    } else {
        state.compare = None; // not shown: its memory goes to the map
    }
    let compare = match (differ, &job.compare) {
        (true, CompareWith::Ruleset(_)) => state.compare.as_ref().map_or(Compare::Nothing, Compare::Source),
        (true, CompareWith::Theorem(p)) => Compare::Theorem(*p),
        _ => Compare::Nothing,
    };
    let room = leaving(&state.compare);
    let Some(main) = state.tiles.as_mut() else {
        return Err(JobError::Failed("no tile source".into()));
    };
    let mut pending = Vec::new();
    main.fill(&region, &room, &mut |s, stage| {
        let tiles = pool.absorb(s, &compare, stage, control)?;
        pending.extend(tiles);
        if !pending.is_empty() {
            emit(Output::Tiles(TileBatch {
                tiles: std::mem::take(&mut pending),
                max: pool.max_value(),
                counts: None,
            }));
        }
        Ok(())
    })?;
    // the colour range's region beyond the view: filled, then counted (a region past the
    // budget leaves the range to the view, said by no counts)
    let mut counted = true;
    if let Some(rest) = pool.uncounted().cloned() {
        match main.fill(&rest, &room, &mut |_, _| Ok(())) {
            Ok(()) => pool.count_rest(main, control)?,
            Err(SolveError::Cancelled) => return Err(JobError::Cancelled),
            Err(_) => counted = false,
        }
    }
    Ok(Output::Tiles(TileBatch {
        tiles: pending,
        max: pool.max_value(),
        counts: counted.then(|| Box::new(pool.counts().clone())),
    }))
}
