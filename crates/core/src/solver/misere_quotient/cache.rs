//! Quotients kept, so each is computed once: in this process (the largest quotient grown for
//! each code, and the heap where its growth is known to stop for good), and on disk in the
//! user's cache folder (`$NIMSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/nimscope`, else
//! `~/.cache/nimscope`), one file a code under `quotients/`. A file carries the format's
//! version and the SHA-256 of its contents; one that fails any check (version, checksum, the
//! table's shape: identity, entries in range, a stage for every heap) is not trusted but
//! computed again and replaced. A quotient asked for a smaller bound than the one kept is grown
//! afresh (its monoid is not the larger one's), one for a larger bound is grown on from the one
//! kept; a growth that stopped at a limit of the method is remembered, so asking past it again
//! is refused at once, with the same reason; one that stopped at the memory budget is
//! remembered with that budget, so asking past it again under the same budget or a smaller one
//! (which the growth would outgrow at that heap or before) is refused at once too. Jobs asking
//! for one code at once share its growth ([`super::shared`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::monoid::Monoid;
use super::shared::{self, Turn};
use super::{Growth, Quotient, Stage, finish, grow_from};
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};

/// The first bytes of a cached quotient.
const MAGIC: &[u8; 16] = b"NIMSCOPE MQUOT\n\0";
/// The version of the files and of the method that grows them: a file of another version is
/// computed again (2: codes that split without taking order their lightest collections by a
/// weight every move lowers; version 1 remembered an internal stop of Grundy's game at heap 13;
/// 3: a stop at the memory budget is kept, with the budget).
pub const VERSION: u32 = 3;
/// The largest quotient kept in memory (its table): larger ones stay on disk only.
const MAX_KEPT_BYTES: u64 = 16 << 20;

/// What is kept for a code.
#[derive(Clone)]
struct Entry {
    /// The largest quotient grown.
    quotient: Arc<Quotient>,
    /// The heap whose growth failed at a limit of the method, with the reason.
    past: Option<(u16, String)>,
    /// The heap whose growth outgrew a memory budget, with what it needed then.
    short: Option<Short>,
}

/// A growth that stopped at the memory budget: at heap `at`, under `budget`, needing `needed`
/// bytes for `what` ([`SolveError::OverBudget`]'s fields).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Short {
    at: u16,
    budget: u64,
    needed: u64,
    what: String,
}

fn kept() -> &'static Mutex<HashMap<OctalCode, Entry>> {
    static KEPT: OnceLock<Mutex<HashMap<OctalCode, Entry>>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The folder of cached quotients, if one can be named.
pub fn folder() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = var("NIMSCOPE_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|p| p.join("nimscope")))
        .or_else(|| var("HOME").map(|p| p.join(".cache").join("nimscope")))?;
    Some(base.join("quotients"))
}

fn file_of(code: &OctalCode) -> Option<PathBuf> {
    Some(folder()?.join(format!("{code}.mquot")))
}

/// The entry for `code`: from memory, else from its file (checked), else none.
fn lookup(code: &OctalCode) -> Option<Entry> {
    if let Some(e) = kept().lock().ok()?.get(code) {
        return Some(e.clone());
    }
    let bytes = std::fs::read(file_of(code)?).ok()?;
    let e = decode(code, &bytes)?;
    remember(code, &e);
    Some(e)
}

fn remember(code: &OctalCode, e: &Entry) {
    let size = e.quotient.size() as u64;
    if size * size * 4 <= MAX_KEPT_BYTES
        && let Ok(mut k) = kept().lock()
    {
        k.insert(code.clone(), e.clone());
    }
}

/// Keeps `e` in memory and on disk (a failure to write is ignored: the cache is an aid).
fn store(code: &OctalCode, e: Entry) {
    remember(code, &e);
    if let Some(path) = file_of(code)
        && let Some(dir) = path.parent()
        && std::fs::create_dir_all(dir).is_ok()
    {
        let _ = crate::files::write_atomic(&path, &encode(&e));
    }
}

/// Whether a stop is for good (a limit of the method), not for want of memory or time.
fn for_good(e: &SolveError) -> bool {
    matches!(e, SolveError::Unsupported(_))
}

/// Grows on from the entry kept (or from nothing) to `heaps` and keeps the result.
fn grow_and_keep(
    code: &OctalCode,
    from: Option<&Entry>,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    let start = from.map_or_else(Growth::start, |e| e.quotient.growth());
    let (g, stopped) = grow_from(code, start, heaps, control, stage_done, &mut |g| after_heap(code, g))?;
    let q = finish(code, g)?;
    let grew = from.is_none_or(|e| q.heaps() > e.quotient.heaps());
    let past = match &stopped {
        Some(e) if for_good(e) => Some((q.heaps() + 1, e.to_string())),
        _ => from.and_then(|e| e.past.clone()),
    };
    let short = match &stopped {
        Some(SolveError::OverBudget { what, needed, budget }) => Some(Short {
            at: q.heaps() + 1,
            budget: *budget,
            needed: *needed,
            what: what.clone(),
        }),
        // a stop remembered from before, unless this growth went past it
        _ => from.and_then(|e| e.short.clone()).filter(|s| q.heaps() < s.at),
    };
    let before = from.map(|e| (e.past.clone(), e.short.clone()));
    if grew || before != Some((past.clone(), short.clone())) {
        store(
            code,
            Entry {
                quotient: Arc::new(q.clone()),
                past,
                short,
            },
        );
    }
    Ok((q, stopped))
}

/// The refusal of a bound past a growth known to stop: at a limit of the method, or at a
/// memory budget no smaller than this job's.
fn known_stop(e: &Entry, heaps: u16, control: &Control) -> Option<SolveError> {
    if let Some((at, why)) = &e.past
        && heaps >= *at
    {
        return Some(SolveError::Unsupported(why.clone()));
    }
    match &e.short {
        Some(s) if heaps >= s.at && control.memory_budget() <= s.budget => Some(SolveError::OverBudget {
            what: s.what.clone(),
            needed: s.needed,
            budget: control.memory_budget(),
        }),
        _ => None,
    }
}

/// The quotient for heaps up to exactly `heaps` (see [`super::compute_with`]): the one kept if
/// it has that bound, grown on from it if it is smaller, grown afresh if larger.
pub(super) fn exactly(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    let claim = match shared::claim(code, heaps, true, control, &mut |_, _| {})? {
        Turn::Mine(claim) => claim,
        Turn::Handed(q) => return handed(&q, control, stage_done),
        Turn::Alone => return afresh(code, heaps, control, stage_done),
    };
    let Some(e) = lookup(code) else {
        // a growth that cannot fit is refused before it starts, not at the heap it stops at
        super::admit_growth(code, heaps, control)?;
        return grow_and_keep(code, None, heaps, control, stage_done);
    };
    if let Some(stop) = known_stop(&e, heaps, control) {
        return Ok((e.quotient.as_ref().clone(), Some(stop)));
    }
    let kept = e.quotient.heaps();
    if kept <= heaps {
        charge(&e.quotient, control)?;
        e.quotient.stages().iter().for_each(&mut *stage_done);
        if kept == heaps {
            return Ok((e.quotient.as_ref().clone(), None));
        }
        super::admit_growth(code, heaps, control)?;
        return grow_and_keep(code, Some(&e), heaps, control, stage_done);
    }
    // grown afresh and not kept: other jobs need not wait for it
    drop(claim);
    afresh(code, heaps, control, stage_done)
}

/// The quotient for exactly `heaps` grown from nothing and not kept (a larger one is kept).
fn afresh(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    super::admit_growth(code, heaps, control)?;
    let (g, stopped) = grow_from(code, Growth::start(), heaps, control, stage_done, &mut |g| {
        after_heap(code, g)
    })?;
    Ok((finish(code, g)?, stopped))
}

/// A quotient for heaps up to `heaps` or more (see [`super::compute_as_far_as`]); `waited` is
/// told each heap another job's growth reaches while this one waits for it.
pub(super) fn at_least(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
    waited: &mut dyn FnMut(u16, usize),
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    // (no exact bound asked: nothing is handed over, nor grown alone)
    let _claim = match shared::claim(code, heaps, false, control, waited)? {
        Turn::Mine(claim) => Some(claim),
        Turn::Handed(q) => return handed(&q, control, stage_done),
        Turn::Alone => None,
    };
    let Some(e) = lookup(code) else {
        return grow_and_keep(code, None, heaps, control, stage_done);
    };
    charge(&e.quotient, control)?;
    if e.quotient.heaps() >= heaps {
        return Ok((e.quotient.as_ref().clone(), None));
    }
    if let Some(stop) = known_stop(&e, heaps, control) {
        return Ok((e.quotient.as_ref().clone(), Some(stop)));
    }
    grow_and_keep(code, Some(&e), heaps, control, stage_done)
}

/// The answer of a job another job's growth handed its quotient to.
fn handed(
    q: &Quotient,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    charge(q, control)?;
    q.stages().iter().for_each(stage_done);
    Ok((q.clone(), None))
}

/// After each heap a growth adds: counted, and handed to the jobs waiting for a quotient for
/// exactly those heaps.
fn after_heap(code: &OctalCode, g: &Growth) {
    shared::count_heap(code, g.heaps(), g.current.monoid.size());
    if shared::is_wanted(code, g.heaps())
        && let Ok(q) = finish(code, g.clone())
    {
        shared::hand_over(code, g.heaps(), Arc::new(q));
    }
}

/// A kept quotient's table counts against the budget of the job it is given to.
fn charge(q: &Quotient, control: &Control) -> Result<(), SolveError> {
    let size = q.size() as u64;
    control.reserve("the misère quotient's table", size * size * 4)
}

/// The bytes of a cache file (little-endian throughout), ending with the SHA-256 of the rest.
fn encode(e: &Entry) -> Vec<u8> {
    let q = &e.quotient;
    let m = q.monoid();
    let n = m.size();
    let mut b = Vec::with_capacity(64 + n * n * 4);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    let code = q.code().to_string();
    put_text(&mut b, &code);
    b.extend_from_slice(&(n as u32).to_le_bytes());
    for x in 0..n as u32 {
        for &y in m.row(x) {
            b.extend_from_slice(&y.to_le_bytes());
        }
    }
    b.extend((0..n as u32).map(|x| u8::from(m.is_p(x))));
    b.extend_from_slice(&u32::from(q.heaps()).to_le_bytes());
    for h in 0..=q.heaps() {
        b.extend_from_slice(&q.heap_element(h).to_le_bytes());
    }
    for s in q.stages() {
        b.extend_from_slice(&s.heap.to_le_bytes());
        b.extend_from_slice(&(s.size as u32).to_le_bytes());
        b.extend_from_slice(&(s.states as u64).to_le_bytes());
        b.push(u8::from(s.tame));
        b.push(u8::from(s.split));
    }
    b.extend_from_slice(&(q.candidates() as u64).to_le_bytes());
    match &e.past {
        Some((at, why)) => {
            b.push(1);
            b.extend_from_slice(&at.to_le_bytes());
            put_text(&mut b, why);
        }
        None => b.push(0),
    }
    match &e.short {
        Some(s) => {
            b.push(1);
            b.extend_from_slice(&s.at.to_le_bytes());
            b.extend_from_slice(&s.budget.to_le_bytes());
            b.extend_from_slice(&s.needed.to_le_bytes());
            put_text(&mut b, &s.what);
        }
        None => b.push(0),
    }
    let digest = Sha256::digest(&b);
    b.extend_from_slice(&digest);
    b
}

/// Writes a text as its length in bytes (u32) and its UTF-8 bytes ([`Reader::text`]).
fn put_text(b: &mut Vec<u8>, text: &str) {
    b.extend_from_slice(&(text.len() as u32).to_le_bytes());
    b.extend_from_slice(text.as_bytes());
}

/// Reads fields off a byte slice, failing (None) past its end.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, k: usize) -> Option<&[u8]> {
        if self.0.len() < k {
            return None;
        }
        let (a, b) = self.0.split_at(k);
        self.0 = b;
        Some(a)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A text [`put_text`] wrote.
    fn text(&mut self) -> Option<String> {
        let len = self.u32()? as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

/// The entry a cache file holds, if every check passes: magic, version, checksum, the code,
/// and a table that is a monoid's shape (identity 0, entries in range, one stage a heap).
fn decode(code: &OctalCode, bytes: &[u8]) -> Option<Entry> {
    let (body, digest) = bytes.split_at(bytes.len().checked_sub(32)?);
    if Sha256::digest(body).as_slice() != digest {
        return None;
    }
    let mut r = Reader(body);
    if r.take(16)? != MAGIC || r.u32()? != VERSION {
        return None;
    }
    if r.text()? != code.to_string() {
        return None;
    }
    let n = r.u32()? as usize;
    if n == 0 || n > super::MAX_ELEMENTS * 4 {
        return None;
    }
    let mut mul = Vec::with_capacity(n * n);
    for _ in 0..n * n {
        let y = r.u32()?;
        if y as usize >= n {
            return None;
        }
        mul.push(y);
    }
    if (0..n).any(|y| mul[y] != y as u32 || mul[y * n] != y as u32) {
        return None;
    }
    let p: Vec<bool> = r.take(n)?.iter().map(|&x| x != 0).collect();
    let heaps = u16::try_from(r.u32()?).ok()?;
    let mut heap_element = Vec::new();
    for _ in 0..=heaps {
        let x = r.u32()?;
        if x as usize >= n {
            return None;
        }
        heap_element.push(x);
    }
    let mut stages = Vec::new();
    for k in 1..=heaps {
        let heap = r.u16()?;
        let size = r.u32()? as usize;
        let states = usize::try_from(r.u64()?).ok()?;
        let (tame, split) = (r.u8()? != 0, r.u8()? != 0);
        if heap != k {
            return None;
        }
        stages.push(Stage {
            heap,
            size,
            tame,
            states,
            split,
        });
    }
    let candidates = usize::try_from(r.u64()?).ok()?;
    let past = match r.u8()? {
        0 => None,
        _ => {
            let at = r.u16()?;
            Some((at, r.text()?))
        }
    };
    let short = match r.u8()? {
        0 => None,
        _ => {
            let (at, budget, needed) = (r.u16()?, r.u64()?, r.u64()?);
            let what = r.text()?;
            Some(Short {
                at,
                budget,
                needed,
                what,
            })
        }
    };
    if !r.0.is_empty() {
        return None;
    }
    let g = Growth {
        current: super::extend::Pretension {
            monoid: Monoid::new(n, mul, p),
            heap_element,
        },
        stages,
        candidates,
    };
    let quotient = Arc::new(finish(code, g).ok()?);
    Some(Entry { quotient, past, short })
}

/// Forgets what is kept for `code`, in this process and in its file: for tests that watch a
/// quotient being computed.
pub fn forget(code: &OctalCode) {
    if let Ok(mut k) = kept().lock() {
        k.remove(code);
    }
    if let Some(path) = file_of(code) {
        let _ = std::fs::remove_file(path);
    }
}

/// Forgets what this process keeps (the files stay): for tests that watch the disk cache.
pub fn forget_in_memory() {
    if let Ok(mut k) = kept().lock() {
        k.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damaged_ones_are_refused() {
        let code: OctalCode = "0.77".parse().unwrap();
        let (g, _) = grow_from(&code, Growth::start(), 20, &Control::new(), &mut |_| {}, &mut |_| {}).unwrap();
        let q = finish(&code, g).unwrap();
        let e = Entry {
            quotient: Arc::new(q.clone()),
            past: Some((21, "a reason".into())),
            short: Some(Short {
                at: 21,
                budget: 16 << 20,
                needed: 17 << 20,
                what: "the growth".into(),
            }),
        };
        let bytes = encode(&e);
        let back = decode(&code, &bytes).unwrap();
        assert_eq!(back.quotient.monoid(), q.monoid());
        assert_eq!(back.quotient.stages(), q.stages());
        assert_eq!((back.past, back.short), (e.past.clone(), e.short.clone()));
        // another code's file, any byte changed, or cut short: not trusted
        assert!(decode(&"0.07".parse().unwrap(), &bytes).is_none());
        for i in [0, 17, 30, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(decode(&code, &bad).is_none(), "byte {i}");
        }
        assert!(decode(&code, &bytes[..bytes.len() - 40]).is_none());
        // a table that is not a monoid's shape, with a checksum that matches it
        let mut shaped = bytes[..bytes.len() - 32].to_vec();
        let at = 16 + 4 + 4 + 4 + 4;
        shaped[at] = 1;
        let digest = Sha256::digest(&shaped);
        shaped.extend_from_slice(&digest);
        assert!(decode(&code, &shaped).is_none());
    }

    #[test]
    fn a_stop_at_the_budget_refuses_that_budget_or_a_smaller_one_at_once() {
        let code: OctalCode = "0.77".parse().unwrap();
        let (g, _) = grow_from(&code, Growth::start(), 10, &Control::new(), &mut |_| {}, &mut |_| {}).unwrap();
        let mut e = Entry {
            quotient: Arc::new(finish(&code, g).unwrap()),
            past: None,
            short: Some(Short {
                at: 11,
                budget: 16 << 20,
                needed: 17 << 20,
                what: "the growth of heap 11".into(),
            }),
        };
        let stop = |e: &Entry, heaps: u16, budget: u64| known_stop(e, heaps, &Control::with_budget(budget));
        for budget in [16 << 20, 1 << 20] {
            assert_eq!(
                stop(&e, 12, budget),
                Some(SolveError::OverBudget {
                    what: "the growth of heap 11".into(),
                    needed: 17 << 20,
                    budget
                })
            );
        }
        // below the heap it stopped at, or under a larger budget: grown (or read) as asked
        assert_eq!(stop(&e, 10, 16 << 20), None);
        assert_eq!(stop(&e, 12, 32 << 20), None);
        // a limit of the method holds under any budget
        e.past = Some((11, "too many elements".into()));
        assert_eq!(
            stop(&e, 11, 1 << 40),
            Some(SolveError::Unsupported("too many elements".into()))
        );
    }
}
