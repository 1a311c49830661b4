//! A damaged last state never stops the window from starting: `window.ron` that does not parse,
//! or holds a session that does not validate, is set aside under another name (never deleted
//! or overwritten by the autosave), the window says so and starts fresh.

use std::path::{Path, PathBuf};

use nimscope_core::session::Session;

use crate::common::harness;

use crate::common::temp_dir;

/// The files of `dir` but `window.ron`.
fn others(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "window.ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_damaged_last_state_is_set_aside_and_the_window_starts_fresh() {
    for (name, bytes) in [
        ("unparsable", &b"WindowState(last: Some(Session(ruleset: \"nim\""[..]),
        (
            "invalid",
            b"WindowState(last: Some(Session(ruleset: \"wythoff\", color: Modulo(4294967295))))",
        ),
    ] {
        let dir = temp_dir(name);
        std::fs::write(dir.join("window.ron"), bytes).unwrap();
        let mut h = harness();
        h.state_mut().use_state_dir(dir.to_path_buf());
        for _ in 0..3 {
            h.step();
        }
        let kept = others(&dir);
        assert_eq!(kept.len(), 1, "{name}: {kept:?}");
        assert_eq!(std::fs::read(&kept[0]).unwrap(), bytes, "{name}");
        let notice = h
            .state()
            .notice()
            .unwrap_or_else(|| panic!("{name}: no word to the user"));
        assert!(notice.error, "{name}: {}", notice.text);
        let kept_name = kept[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(notice.text.contains(&kept_name), "{name}: {}", notice.text);
        // fresh: the default ruleset
        assert_eq!(h.state().session().ruleset, Session::default().ruleset, "{name}");
        // the next autosave writes a good state beside the kept one
        h.state_mut().write_window_state();
        assert_eq!(others(&dir), kept, "{name}");
        assert!(dir.join("window.ron").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
