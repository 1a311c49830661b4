//! Fuzz tests of session files and export paths, bounded in time (a fixed number of cases,
//! each with a small memory budget and a deadline): mutated sessions load or are refused with
//! one clean line and never crash the figure; atomic writes to every kind of path either
//! write where the path leads or refuse, and never replace a link, a FIFO, a mode or the
//! session being exported; checkpoints and export inputs at every kind of path (links,
//! dangling links, FIFOs, devices, folders, huge and damaged files) are used where they lead
//! or refused in one line, without blocking.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use nimscope_core::figure::{FigureStyle, make_figure};
use nimscope_core::files::write_atomic;
use nimscope_core::session::Session;
use nimscope_core::solver::Control;
use proptest::prelude::*;

use crate::common::temp_dir;

fn examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    out.sort();
    out
}

/// Values that have hurt before, or sit on a boundary.
fn extreme_field() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("2".to_string()),
        Just("64".to_string()),
        Just("4294967295".to_string()),
        Just("18446744073709551615".to_string()),
        (0u64..400).prop_map(|n| n.to_string()),
    ];
    let float = prop_oneof![
        Just("0.0".to_string()),
        Just("-1.0".to_string()),
        Just("1e300".to_string()),
        Just("1e-300".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        (-100.0f64..100.0).prop_map(|x| format!("{x:?}")),
    ];
    let text = prop_oneof![
        Just("nim".to_string()),
        Just("push(nim".to_string()),
        Just("\\n\\u{1b}[31m".to_string()),
        Just("x".repeat(5000)),
        "[a-z(),0-9_.#/ ]{0,20}",
    ];
    prop_oneof![
        number.clone().prop_map(|k| format!("color: Modulo({k})")),
        (number.clone(), number.clone()).prop_map(|(a, b)| format!("rows: (start: {a}, end: {b})")),
        (number.clone(), number.clone()).prop_map(|(a, b)| format!("cols: (start: {a}, end: {b})")),
        number.clone().prop_map(|n| format!("sequence_len: {n}")),
        number.clone().prop_map(|w| format!("figure: (width: {w})")),
        (float.clone(), float.clone(), float)
            .prop_map(|(a, b, z)| format!("view: (center_a: {a}, center_b: {b}, cells_per_point: {z})")),
        text.clone().prop_map(|t| format!("ruleset: \"{t}\"")),
        text.clone().prop_map(|t| format!("slice: \"{t}\"")),
        text.clone().prop_map(|t| format!("compare: \"{t}\"")),
        text.clone()
            .prop_map(|t| format!("inspector: (selected: Some(\"{t}\"))")),
        text.prop_map(|t| format!("board: Some((board: \"{t}\"))")),
        (number.clone(), number.clone(), any::<bool>()).prop_map(|(r, c, v)| format!(
            "board: Some((board: \"..../..../....\", dominoes: [(row: {r}, col: {c}, orientation: {})]))",
            if v { "Vertical" } else { "Horizontal" }
        )),
        number.prop_map(|n| format!("inspector: (shown: {{\"3\": {n}}})")),
        Just("tab: CramBoard".to_string()),
        Just("color: Difference".to_string()),
        Just("format_version: 2".to_string()),
    ]
}

/// One edit of a session's text.
#[derive(Debug, Clone)]
enum Mutation {
    /// A field inserted after `Session(` (later fields of the same name win or clash).
    Field(String),
    /// A character inserted, deleted or replaced at a fraction of the text.
    Insert(f64, char),
    Delete(f64),
    Replace(f64, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => extreme_field().prop_map(Mutation::Field),
        1 => (0.0..1.0f64, any::<char>()).prop_map(|(f, c)| Mutation::Insert(f, c)),
        1 => (0.0..1.0f64).prop_map(Mutation::Delete),
        1 => (0.0..1.0f64, prop::sample::select(vec!['0', '9', '(', ')', '"', ',', ':', '\n', '\\', '#']))
            .prop_map(|(f, c)| Mutation::Replace(f, c)),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let at = |f: f64, text: &str| {
        let mut i = ((text.len() as f64) * f) as usize;
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match m {
        Mutation::Field(field) => {
            // a field written twice is a syntax error: replace the example's own line
            let name = field.split(':').next().unwrap_or_default();
            let own = format!("\n    {name}:");
            if let Some(i) = text.find(&own) {
                let end = text[i + 1..].find('\n').map_or(text.len(), |j| i + 1 + j);
                let line = &text[i + 1..end];
                if !line.ends_with(',') {
                    return text.to_string(); // a field over several lines stays
                }
                return format!("{}\n    {field},{}", &text[..i], &text[end..]);
            }
            match text.find("Session(") {
                Some(i) => format!("{}Session(\n    {field},{}", &text[..i], &text[i + 8..]),
                None => format!("Session({field})"),
            }
        }
        Mutation::Insert(f, c) => {
            let i = at(*f, text);
            format!("{}{c}{}", &text[..i], &text[i..])
        }
        Mutation::Delete(f) => {
            let i = at(*f, text);
            let next = text[i..].chars().next().map_or(0, char::len_utf8);
            format!("{}{}", &text[..i], &text[i + next..])
        }
        Mutation::Replace(f, c) => {
            let i = at(*f, text);
            let next = text[i..].chars().next().map_or(0, char::len_utf8);
            format!("{}{c}{}", &text[..i], &text[i + next..])
        }
    }
}

/// A control that cancels itself after `limit` (or when dropped with the returned sender).
fn control_with_deadline(budget: u64, limit: Duration) -> (Control, mpsc::Sender<()>) {
    let control = Control::with_budget(budget);
    let (done, wait) = mpsc::channel::<()>();
    let c = control.clone();
    std::thread::Builder::new()
        .name("fuzz-deadline".into())
        .spawn(move || {
            if wait.recv_timeout(limit).is_err() {
                c.cancel();
            }
        })
        .unwrap();
    (control, done)
}

fn is_one_clean_line(message: &str) -> bool {
    !message.chars().any(char::is_control) && message.chars().count() <= 1000
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Loading never crashes; a refusal is one clean, short line; what loads draws a figure or
    /// refuses to, within a small budget and a deadline.
    #[test]
    fn mutated_sessions_load_or_are_refused_cleanly(
        which in 0usize..4,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let base = &examples()[which % examples().len()];
        let mut text = base.clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        match Session::from_ron(&text, "fuzz.ron") {
            Err(e) => {
                let shown = e.to_string();
                prop_assert!(is_one_clean_line(&shown), "{shown:?}");
                prop_assert!(shown.starts_with("fuzz.ron"), "{shown}");
            }
            Ok(s) => {
                // what loaded saves and loads back as the same session
                let again = Session::from_ron(&s.to_ron(), "again.ron");
                prop_assert_eq!(again.as_ref().ok(), Some(&s), "{:?}", again);
                // A small corner of the region: this is about refusing cleanly, not about the
                // solver's speed (the deadline bounds what is left).
                let small = |r: &std::ops::Range<u64>| r.start..r.end.min(r.start.saturating_add(40));
                let s = Session { rows: small(&s.rows), cols: small(&s.cols), ..s };
                let style = FigureStyle { width: 300, ..s.figure.clone() };
                if let Ok(spec) = s.figure_spec(style, None) {
                    let (control, _done) = control_with_deadline(32 << 20, Duration::from_secs(2));
                    if let Err(e) = make_figure(&spec, &control) {
                        prop_assert!(is_one_clean_line(&e.to_string()), "{e}");
                    }
                }
            }
        }
    }
}

/// What lies at the output path before the write.
#[derive(Debug, Clone, Copy)]
enum Target {
    Missing,
    Regular(u32),
    SymlinkToRegular(u32),
    SymlinkToMissing,
    SymlinkChain,
    Folder,
    InMissingFolder,
}

fn target() -> impl Strategy<Value = Target> {
    let mode = prop::sample::select(vec![0o600u32, 0o640, 0o644, 0o664, 0o755, 0o444, 0o400]);
    prop_oneof![
        Just(Target::Missing),
        mode.clone().prop_map(Target::Regular),
        mode.prop_map(Target::SymlinkToRegular),
        Just(Target::SymlinkToMissing),
        Just(Target::SymlinkChain),
        Just(Target::Folder),
        Just(Target::InMissingFolder),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// An atomic write either puts the bytes where the path leads (keeping the mode of a file
    /// it replaces) or refuses and changes nothing; links stay links; nothing is left behind.
    #[test]
    fn atomic_writes_follow_the_path_or_change_nothing(t in target(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let dir = temp_dir("paths");
        let old = b"old contents".to_vec();
        let real = dir.join("real.png");
        let path = match t {
            Target::Missing => dir.join("new.png"),
            Target::Regular(mode) => {
                std::fs::write(&real, &old).unwrap();
                std::fs::set_permissions(&real, std::fs::Permissions::from_mode(mode)).unwrap();
                real.clone()
            }
            Target::SymlinkToRegular(mode) => {
                std::fs::write(&real, &old).unwrap();
                std::fs::set_permissions(&real, std::fs::Permissions::from_mode(mode)).unwrap();
                std::os::unix::fs::symlink("real.png", dir.join("link.png")).unwrap();
                dir.join("link.png")
            }
            Target::SymlinkToMissing => {
                std::os::unix::fs::symlink("real.png", dir.join("link.png")).unwrap();
                dir.join("link.png")
            }
            Target::SymlinkChain => {
                std::fs::write(&real, &old).unwrap();
                std::os::unix::fs::symlink("real.png", dir.join("one.png")).unwrap();
                std::os::unix::fs::symlink(dir.join("one.png"), dir.join("two.png")).unwrap();
                dir.join("two.png")
            }
            Target::Folder => {
                std::fs::create_dir(dir.join("folder.png")).unwrap();
                dir.join("folder.png")
            }
            Target::InMissingFolder => dir.join("nowhere").join("x.png"),
        };
        let mode_before = std::fs::metadata(&real).ok().map(|m| m.mode() & 0o7777);
        let result = write_atomic(&path, &bytes);
        // links are never replaced
        for link in ["link.png", "one.png", "two.png"] {
            let p = dir.join(link);
            if let Ok(m) = std::fs::symlink_metadata(&p) {
                prop_assert!(m.file_type().is_symlink(), "{link} was replaced ({t:?})");
            }
        }
        match (&result, t) {
            (Ok(()), Target::Missing) => prop_assert_eq!(std::fs::read(&path).unwrap(), bytes.clone()),
            (Ok(()), Target::Regular(m) | Target::SymlinkToRegular(m)) => {
                prop_assert!(m & 0o200 != 0, "a read-only file was replaced ({t:?})");
                prop_assert_eq!(std::fs::read(&real).unwrap(), bytes.clone());
                prop_assert_eq!(std::fs::metadata(&real).unwrap().mode() & 0o7777, m);
            }
            (Ok(()), Target::SymlinkChain) => prop_assert_eq!(std::fs::read(&real).unwrap(), bytes.clone()),
            (Ok(()), Target::SymlinkToMissing) => prop_assert_eq!(std::fs::read(&real).unwrap(), bytes.clone()),
            (Ok(()), Target::Folder | Target::InMissingFolder) => prop_assert!(false, "wrote to {t:?}"),
            (Err(_), _) => {
                // nothing changed
                if mode_before.is_some() {
                    prop_assert_eq!(std::fs::read(&real).unwrap(), old.clone());
                    prop_assert_eq!(std::fs::metadata(&real).unwrap().mode() & 0o7777, mode_before.unwrap());
                }
                let may_refuse = match t {
                    Target::Regular(m) | Target::SymlinkToRegular(m) => m & 0o200 == 0,
                    Target::SymlinkToMissing | Target::Folder | Target::InMissingFolder => true,
                    Target::Missing | Target::SymlinkChain => false,
                };
                prop_assert!(may_refuse, "refused {:?}: {:?}", t, result);
            }
        }
        if let Err(e) = &result {
            prop_assert!(is_one_clean_line(&e.to_string()), "{e}");
        }
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            prop_assert!(!name.contains(".tmp"), "left behind: {name}");
        }
        let _ = std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644));
    }

    /// The export command, given any width, scale, title and output name, writes a PNG or
    /// refuses in one clean line, and never writes over its session.
    #[test]
    fn export_arguments_write_a_png_or_one_clean_line(
        width in prop::option::of(prop_oneof![Just(0u32), Just(63), Just(64), 1u32..2000, Just(16385), Just(u32::MAX)]),
        scale in prop::option::of(prop_oneof![Just("0.0001".to_string()), Just("1e18".to_string()), Just("-1".to_string()), Just("NaN".to_string()), (0.01f64..40.0).prop_map(|s| s.to_string())]),
        title in prop::option::of("[\\PC\\n\\x1b]{0,12}"),
        onto_session in any::<bool>(),
    ) {
        let dir = temp_dir("export");
        let session = dir.join("s.ron");
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron"), &session).unwrap();
        let before = std::fs::read(&session).unwrap();
        let out = if onto_session { session.clone() } else { dir.join("o.png") };
        let mut args = vec!["export".to_string(), session.to_string_lossy().into_owned(), "-o".into(), out.to_string_lossy().into_owned()];
        if let Some(w) = width { args.extend(["--width".into(), w.to_string()]); }
        if let Some(s) = &scale { args.extend(["--scale".into(), s.clone()]); }
        if let Some(t) = &title { args.extend(["--title".into(), t.clone()]); }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_nimscope")).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if o.status.success() {
            prop_assert!(!onto_session);
            prop_assert!(std::fs::read(&out).unwrap().starts_with(b"\x89PNG"));
        } else {
            prop_assert_eq!(o.status.code(), Some(2), "{}", err);
            prop_assert!(err.starts_with("error: ") && err.lines().count() == 1, "{:?}", err);
            prop_assert!(is_one_clean_line(err.trim_end()), "{:?}", err);
        }
        prop_assert_eq!(std::fs::read(&session).unwrap(), before);
    }
}

#[cfg(feature = "gui")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// What a session file passes, the window shows without crashing.
    #[test]
    fn the_window_shows_every_session_that_loads(
        which in 0usize..4,
        mutations in prop::collection::vec(mutation(), 1..3),
    ) {
        let base = &examples()[which % examples().len()];
        let mut text = base.clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        if let Ok(s) = Session::from_ron(&text, "fuzz.ron") {
            let mut h = crate::common::harness_with_budget(32 << 20);
            h.step();
            let applied = h.state_mut().apply_session(s);
            prop_assert!(applied.as_ref().map_or_else(|e| is_one_clean_line(e), |_| true), "{:?}", applied);
            for _ in 0..3 {
                h.step();
            }
        }
    }
}

/// What lies at a path a command reads or writes: files, links, and what is no file.
#[derive(Debug, Clone, Copy)]
enum PathKind {
    Missing,
    Regular,
    Garbage,
    Empty,
    SymlinkToMissing,
    SymlinkToRegular,
    SymlinkChain,
    DanglingChain,
    Folder,
    Fifo,
    Device,
    Huge,
    InMissingFolder,
}

fn path_kind() -> impl Strategy<Value = PathKind> {
    prop::sample::select(vec![
        PathKind::Missing,
        PathKind::Regular,
        PathKind::Garbage,
        PathKind::Empty,
        PathKind::SymlinkToMissing,
        PathKind::SymlinkToRegular,
        PathKind::SymlinkChain,
        PathKind::DanglingChain,
        PathKind::Folder,
        PathKind::Fifo,
        PathKind::Device,
        PathKind::Huge,
        PathKind::InMissingFolder,
    ])
}

/// Makes `kind` at `dir/name` (a regular file holds `good`), returns the path to give.
fn make_path(dir: &Path, name: &str, kind: PathKind, good: &[u8]) -> PathBuf {
    let p = dir.join(name);
    let real = dir.join(format!("real-{name}"));
    match kind {
        PathKind::Missing => {}
        PathKind::Regular => std::fs::write(&p, good).unwrap(),
        PathKind::Garbage => std::fs::write(&p, b"\x00\xffnot this\n").unwrap(),
        PathKind::Empty => std::fs::write(&p, b"").unwrap(),
        PathKind::SymlinkToMissing => std::os::unix::fs::symlink(&real, &p).unwrap(),
        PathKind::SymlinkToRegular => {
            std::fs::write(&real, good).unwrap();
            std::os::unix::fs::symlink(&real, &p).unwrap();
        }
        PathKind::SymlinkChain | PathKind::DanglingChain => {
            if matches!(kind, PathKind::SymlinkChain) {
                std::fs::write(&real, good).unwrap();
            }
            let middle = dir.join(format!("middle-{name}"));
            std::os::unix::fs::symlink(format!("real-{name}"), &middle).unwrap();
            std::os::unix::fs::symlink(&middle, &p).unwrap();
        }
        PathKind::Folder => std::fs::create_dir(&p).unwrap(),
        PathKind::Fifo => {
            crate::common::mkfifo(&p);
        }
        PathKind::Device => return PathBuf::from("/dev/zero"),
        PathKind::Huge => std::fs::File::create(&p).unwrap().set_len(1 << 40).unwrap(),
        PathKind::InMissingFolder => return dir.join("nowhere").join(name),
    }
    p
}

/// Runs the binary with a deadline (a FIFO opened by mistake would block it forever).
fn run_with_deadline(args: &[String]) -> std::process::Output {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("fuzz-child".into())
        .spawn(move || tx.send(child.wait_with_output()))
        .unwrap();
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: kill(2) on the child this test started and has not reaped
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{args:?} blocked past 60 s");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// A checkpoint at any kind of path: the search answers (saving where links lead) or
    /// refuses in one line, never blocks; links stay links, and nothing else is replaced.
    #[test]
    fn checkpoints_at_any_path_follow_links_or_refuse(kind in path_kind(), push in any::<bool>()) {
        let dir = temp_dir("checkpoint");
        let path = make_path(&dir, "ck.bin", kind, b"");
        let mut args = vec!["cram".to_string(), "3x4".into(), "--checkpoint".into(), path.to_string_lossy().into_owned()];
        if push { args.push("--push".into()); }
        let o = run_with_deadline(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        let link = dir.join("ck.bin");
        if let Ok(m) = std::fs::symlink_metadata(&link) {
            let was_link = matches!(kind, PathKind::SymlinkToMissing | PathKind::SymlinkToRegular | PathKind::SymlinkChain | PathKind::DanglingChain);
            prop_assert_eq!(m.file_type().is_symlink(), was_link, "{:?}", kind);
        }
        if o.status.success() {
            prop_assert!(matches!(kind, PathKind::Missing | PathKind::SymlinkToMissing | PathKind::DanglingChain), "{kind:?} accepted: {err}");
            // the checkpoint is where the path leads
            let written = std::fs::read(&path).unwrap();
            prop_assert!(written.starts_with(b"nimscope cram checkpoint\n"));
        } else {
            prop_assert_eq!(o.status.code(), Some(2), "{}", err);
            prop_assert!(err.starts_with("error: ") && err.lines().count() == 1, "{:?}", err);
            prop_assert!(is_one_clean_line(err.trim_end()), "{:?}", err);
        }
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            prop_assert!(!name.contains(".tmp"), "left behind: {name}");
        }
    }

    /// `export` of any kind of input: a session exports, anything else is refused in one line
    /// before it is read (a FIFO would block, a device never ends, a huge file never fits).
    #[test]
    fn export_inputs_of_any_kind_export_or_refuse(kind in path_kind()) {
        let dir = temp_dir("export-input");
        let good = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron")).unwrap();
        let input = make_path(&dir, "s.ron", kind, &good);
        let out = dir.join("o.png");
        let args = vec!["export".to_string(), input.to_string_lossy().into_owned(), "-o".into(), out.to_string_lossy().into_owned(), "--width".into(), "300".into()];
        let o = run_with_deadline(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        if o.status.success() {
            prop_assert!(matches!(kind, PathKind::Regular | PathKind::SymlinkToRegular | PathKind::SymlinkChain), "{kind:?} exported");
            prop_assert!(std::fs::read(&out).unwrap().starts_with(b"\x89PNG"));
        } else {
            prop_assert_eq!(o.status.code(), Some(2), "{}", err);
            prop_assert!(err.starts_with("error: ") && err.lines().count() == 1, "{:?}", err);
            prop_assert!(is_one_clean_line(err.trim_end()), "{:?}", err);
            prop_assert!(!out.exists());
        }
    }
}
