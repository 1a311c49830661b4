//! A long run of a take-and-break code's values: G(0..N) for N up to 2^32 and past it (as the
//! memory budget allows: 2 bytes a heap while values fit in 16 bits), streamed to the caller
//! as they are found, kept in a checkpoint (a values file grown in place every few seconds, and
//! when the run is cancelled) and resumed from it after a stop or a kill. The engine's state is
//! a function of the values alone ([`super::rare_common::RareCommon::resume`]), so a resumed
//! run gives the same values, the same file and the same checksum as one that never stopped.
//! A period certified on the way ends the computation: the rest of the values follow from it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::values_file::{self, Appender, Values};
use super::{Engine, OctalMethod};
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};
use crate::solver::period::Periodicity;

/// What to run.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The take-and-break code computed.
    pub code: OctalCode,
    /// The ruleset's name, as files carry it (`octal(0.6)`, `grundy`).
    pub name: String,
    /// Values G(0..n).
    pub n: u64,
    /// The checkpoint: read when it exists, then kept up to date.
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is saved.
    pub every: Duration,
}

/// A finished run: the computed prefix and, if certified, the period giving the rest.
pub struct Run {
    engine: Engine,
    /// The certified period, when one was found within `n`.
    pub periodicity: Option<Periodicity>,
    /// The values asked for: G(0..n).
    pub n: u64,
    /// The values restored from the checkpoint (0 for a fresh run).
    pub resumed_from: u64,
}

impl Run {
    /// G(i) for `i < n`.
    pub fn get(&self, i: u64) -> u32 {
        let len = self.engine.len() as u64;
        if i < len {
            return self.engine.get(i as usize);
        }
        match self.periodicity {
            Some(p) => self.engine.get((p.preperiod + (i - p.preperiod) % p.period) as usize),
            // not reached: a run without a period computes every value
            None => 0,
        }
    }

    /// How many values were computed (the rest follow from the period).
    pub fn computed(&self) -> u64 {
        self.engine.len() as u64
    }

    /// The method the values were computed by.
    pub fn method(&self) -> OctalMethod {
        self.engine.method()
    }

    /// The engine (its split report and its work counters).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The computed prefix as stored, or every value by the period.
    pub fn with_values<T>(&self, f: impl FnOnce(&Values) -> T) -> T {
        if self.computed() >= self.n
            && let Some(v) = prefix_values(&self.engine)
        {
            return f(&v.prefix(self.n));
        }
        let get = |i: u64| self.get(i);
        f(&Values::By(self.n, &get))
    }
}

/// The engine's values as stored.
fn prefix_values(e: &Engine) -> Option<Values<'_>> {
    match e {
        Engine::RareCommon(rc) => match (rc.narrow_values(), rc.wide_values()) {
            (Some(v), _) => Some(Values::U16(v)),
            (_, Some(v)) => Some(Values::U32(v)),
            _ => None,
        },
        Engine::Plain(p) => Some(Values::U32(p.values())),
    }
}

impl<'a> Values<'a> {
    /// The first `n` values of a stored slice.
    fn prefix(&self, n: u64) -> Values<'a> {
        match *self {
            Values::U16(v) => Values::U16(&v[..n as usize]),
            Values::U32(v) => Values::U32(&v[..n as usize]),
            Values::By(len, f) => Values::By(len.min(n), f),
        }
    }
}

/// A run's checkpoint file.
struct Checkpoint {
    path: PathBuf,
    file: Option<Appender>,
    last: Instant,
    every: Duration,
}

impl Checkpoint {
    fn save(&mut self, name: &str, engine: &Engine) -> Result<(), SolveError> {
        let Some(values) = prefix_values(engine) else {
            return Ok(());
        };
        let result = match &mut self.file {
            Some(a) => a.save(&self.path, &values),
            None => Appender::create(&self.path, name, &values).map(|a| self.file = Some(a)),
        };
        self.last = Instant::now();
        result.map_err(|e| file_error(&self.path, &e.to_string()))
    }
}

fn file_error(path: &Path, why: &str) -> SolveError {
    SolveError::Unsupported(format!("checkpoint {}: {why}", path.display()))
}

/// The engine restored from the checkpoint at `path`, if the file exists; a file that is not
/// this run's checkpoint is refused before anything runs.
fn restore(spec: &Spec, path: &Path) -> Result<Option<(Engine, Appender)>, SolveError> {
    if !path.exists() {
        return Ok(None);
    }
    let (header, values) = values_file::read(path).map_err(|e| file_error(path, &e))?;
    if header.ruleset != spec.name {
        return Err(file_error(
            path,
            &format!("it holds the values of {}, not {}", header.ruleset, spec.name),
        ));
    }
    if header.count > spec.n {
        return Err(file_error(
            path,
            &format!(
                "it holds {} values, more than the {} asked for (ask for at least as many, or give another file)",
                header.count, spec.n
            ),
        ));
    }
    let engine = Engine::resume(&spec.code, &values);
    drop(values);
    let appender = Appender::reopen(path, header).map_err(|e| file_error(path, &e.to_string()))?;
    Ok(Some((engine, appender)))
}

/// Computes G(0..n) of `spec.code`, from its checkpoint when there is one, calling `sink` with
/// each block of new values (`engine`, first index, end) as they are found; a certified period
/// ends the computation (the sink is then given nothing more: the caller reads the rest from
/// the returned [`Run`]). Cancelled, the checkpoint is saved first.
pub fn run(
    spec: &Spec,
    control: &Control,
    sink: &mut dyn FnMut(&Engine, u64, u64) -> std::io::Result<()>,
) -> Result<Run, SolveError> {
    let started = Instant::now();
    control.set_total(spec.n);
    let (mut engine, mut checkpoint) = match &spec.checkpoint {
        Some(path) => {
            let (engine, file) = match restore(spec, path)? {
                Some((e, a)) => (e, Some(a)),
                None => (Engine::new(&spec.code), None),
            };
            let ck = Checkpoint {
                path: path.clone(),
                file,
                last: started,
                every: spec.every,
            };
            (engine, Some(ck))
        }
        None => (Engine::new(&spec.code), None),
    };
    if let Some(ck) = &mut checkpoint
        && ck.file.is_none()
    {
        // an unwritable place is found now, not after the first interval
        ck.save(&spec.name, &engine)?;
    }
    let resumed_from = engine.len() as u64;
    control.add_done(resumed_from);
    let sink_error = |e: std::io::Error| SolveError::Unsupported(format!("writing the values: {e}"));
    sink(&engine, 0, resumed_from).map_err(sink_error)?;
    let mut periodicity = if resumed_from > 0 {
        engine.certify(&spec.code)
    } else {
        None
    };
    let mut next_check = 64u64.max(resumed_from.next_power_of_two());
    let mut max = (0..engine.len()).map(|i| engine.get(i)).max().unwrap_or(0);
    let mut flushed = resumed_from;
    let mut i = resumed_from;
    while i < spec.n && periodicity.is_none() {
        if i.is_multiple_of(4096) {
            if let Err(e) = control.check() {
                if let Some(ck) = &mut checkpoint {
                    ck.save(&spec.name, &engine)?;
                }
                return Err(e);
            }
            control.add_done(i - flushed);
            sink(&engine, flushed, i).map_err(sink_error)?;
            flushed = i;
            let needed = (i + 4096).saturating_mul(engine.bytes_per_heap(max));
            if needed > control.memory_budget() {
                return Err(SolveError::OverBudget {
                    what: format!("the values of {} up to {}", spec.name, spec.n),
                    needed: spec.n.saturating_mul(engine.bytes_per_heap(max)),
                    budget: control.memory_budget(),
                });
            }
            if let Some(ck) = &mut checkpoint
                && i.is_multiple_of(1 << 16)
                && ck.last.elapsed() >= ck.every
            {
                ck.save(&spec.name, &engine)?;
            }
        }
        max = max.max(engine.next_value());
        i += 1;
        if i == next_check || i == spec.n {
            next_check = next_check.saturating_mul(2);
            periodicity = engine.certify(&spec.code);
        }
    }
    control.add_done(i - flushed);
    sink(&engine, flushed, i).map_err(sink_error)?;
    let run = Run {
        engine,
        periodicity,
        n: spec.n,
        resumed_from,
    };
    if let Some(ck) = &mut checkpoint {
        // the checkpoint ends as the values file of all n values
        let path = ck.path.clone();
        run.with_values(|v| values_file::write(&path, &spec.name, v))
            .map_err(|e| file_error(&path, &e.to_string()))?;
    }
    Ok(run)
}
