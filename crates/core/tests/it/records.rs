//! The long-run engine against published figures and against itself: Grundy's game and 0.6 to
//! 2^21 against the statistics of Czajka's octal-games solver (its table `UnsolvedGames`, also
//! Flammenkamp's tables), Grundy's game's first values against the literature (OEIS A002188,
//! and a brute force over every split), runs stopped and resumed from a checkpoint against runs
//! that never stopped, and the certificates of the solved games the catalog names.

use std::path::PathBuf;
use std::time::Duration;

use nimscope_core::game::Ruleset;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::solver::octal::run::{Run, Spec, run};
use nimscope_core::solver::octal::stats::stats;
use nimscope_core::solver::octal::values_file::{self, Values};
use nimscope_core::solver::sequence::{self, Certificate};
use nimscope_core::solver::{Control, SolveError};

fn spec(code: &str, name: &str, n: u64, checkpoint: Option<PathBuf>) -> Spec {
    Spec {
        code: code.parse().unwrap(),
        name: name.into(),
        n,
        checkpoint,
        every: Duration::from_secs(3600),
    }
}

/// A run to its end with a fresh control, its values not printed.
fn quiet(spec: &Spec) -> Result<Run, SolveError> {
    run(spec, &Control::new(), &mut |_, _, _| Ok(()))
}

/// The published statistics at n = 2^21 (Czajka's table: num rare counts heap 0, which is rare
/// under both masks; these statistics leave it out, since heap 0 is never a part of a split).
#[test]
fn grundys_game_and_0_6_to_2_21_give_the_published_statistics() {
    for (code, name, largest, first, mask, published_rare, last_rare) in [
        ("4u.0", "grundy", 231, 763_622, "fe", 1274, 82_860),
        ("0.6", "octal(0.6)", 319, 1_274_955, "1ee", 1584, 20_627),
    ] {
        let r = quiet(&spec(code, name, 1 << 21, None)).unwrap();
        let s = r.with_values(|v| stats(name, Some(&code.parse().unwrap()), v));
        assert_eq!((s.largest, s.largest_first), (largest, first), "{name}");
        assert_eq!(s.rare_mask.as_deref(), Some(mask), "{name}");
        assert!(!s.rare_mask_position);
        assert_eq!(s.rare_count + 1, published_rare, "{name}");
        assert_eq!(s.last_rare_heap, Some(last_rare), "{name}");
        assert_eq!(r.periodicity, None);
    }
}

/// Grundy's game by the definition: split one heap into two unequal heaps.
#[test]
fn grundys_game_is_the_mex_over_unequal_splits() {
    let n = 3000;
    let mut g: Vec<u32> = Vec::new();
    for h in 0..n {
        let mut opts: Vec<u32> = (1..h).filter(|&a| 2 * a < h).map(|a| g[a] ^ g[h - a]).collect();
        opts.sort_unstable();
        let mut v = 0;
        for o in opts {
            if o == v {
                v += 1;
            }
        }
        g.push(v);
    }
    let r: Ruleset = "grundy".parse().unwrap();
    assert_eq!(r.to_string(), "grundy");
    let s = sequence::compute(&r, n as u64, &Control::new()).unwrap();
    assert_eq!((0..n as u64).map(|i| s.get(i).unwrap()).collect::<Vec<_>>(), g);
    // OEIS A002188
    assert_eq!(
        g[..30],
        [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2
        ]
    );
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("nimscope-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// A run cancelled part way (its checkpoint saved on the way out) and resumed gives the file
/// and checksum of a run that never stopped; so does a checkpoint cut back to an earlier save.
#[test]
fn a_resumed_run_ends_with_the_same_values_file() {
    let n = 200_000;
    for (code, name) in [("0.6", "octal(0.6)"), ("4u.0", "grundy"), ("4.007", "octal(4.007)")] {
        let whole = quiet(&spec(code, name, n, None)).unwrap();
        let expected = whole.with_values(|v| values_file::checksum(name, v));
        let path = temp(&format!("resume-{code}"));
        let control = Control::new();
        let stop = control.clone();
        let mut seen = 0u64;
        let first = run(&spec(code, name, n, Some(path.clone())), &control, &mut |_, _, to| {
            seen = to;
            if to > 70_000 {
                stop.cancel();
            }
            Ok(())
        });
        assert!(first.is_err() && seen < n, "{name}: the first run stops");
        let (h, saved) = values_file::read(&path).unwrap();
        assert!(h.count > 70_000 && h.count < n, "{name}: {} saved", h.count);
        assert_eq!(
            &saved[..],
            &whole.with_values(|v| (0..h.count).map(|i| v.get(i)).collect::<Vec<_>>())[..]
        );
        let resumed = quiet(&spec(code, name, n, Some(path.clone()))).unwrap();
        assert_eq!(resumed.resumed_from, h.count);
        assert_eq!(values_file::file_sha256(&path).unwrap(), expected, "{name}");
        assert_eq!(resumed.with_values(|v| values_file::checksum(name, v)), expected);
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_checkpoint_of_another_game_or_longer_run_is_refused() {
    let path = temp("other");
    quiet(&spec("0.6", "octal(0.6)", 5000, Some(path.clone()))).unwrap();
    let e = quiet(&spec("4u.0", "grundy", 5000, Some(path.clone()))).err().unwrap();
    assert!(e.to_string().contains("not grundy"), "{e}");
    let e = quiet(&spec("0.6", "octal(0.6)", 4000, Some(path.clone())))
        .err()
        .unwrap();
    assert!(e.to_string().contains("more than the 4000"), "{e}");
    // asking for more goes on from the saved values
    let r = quiet(&spec("0.6", "octal(0.6)", 9000, Some(path.clone()))).unwrap();
    assert_eq!(r.resumed_from, 5000);
    std::fs::write(&path, b"NIMSCOPE VALUES\ngarbage").unwrap();
    let e = quiet(&spec("0.6", "octal(0.6)", 9000, Some(path.clone())))
        .err()
        .unwrap();
    assert!(e.to_string().contains("checkpoint"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

/// Every solved game the catalog names is certified, with the published periods (Winning Ways;
/// 0.16's 149,459 is Gangolli and Plambeck's), and the certificate holds for the values.
#[test]
fn the_solved_games_are_certified() {
    for (code, period, preperiod) in [
        ("0.07", 34, 53),
        ("0.137", 34, 52),
        ("0.77", 12, 71),
        ("0.16", 149_459, 105_351),
        ("0.4", 34, 54),
        ("0.156", 349, 3479),
        ("0.45", 20, 498),
    ] {
        let r = Ruleset::Octal(code.parse::<OctalCode>().unwrap());
        let c = sequence::compute(&r, 1 << 21, &Control::new()).unwrap();
        let cert: Certificate = c.certificate(&r).unwrap();
        assert_eq!((cert.period, cert.preperiod), (period, preperiod), "{code}");
        assert_eq!(cert.checked, cert.needed);
        let get = |i: u64| c.get(i).unwrap();
        assert!(cert.holds_for(&Values::By(cert.checked, &get)), "{code}");
        // an altered certificate does not
        let mut bad = cert.clone();
        bad.preperiod -= 1;
        assert!(!bad.holds_for(&Values::By(cert.checked, &get)), "{code}: pre-period");
        let json: Certificate = serde_json::from_str(&cert.to_json()).unwrap();
        assert_eq!(json, cert);
    }
}
