//! `seq` for records: values files, statistics, checkpoints that survive a real kill, and
//! certificates that `scripts/verify_period.py` (Python alone, no nimscope) accepts, and rejects
//! once altered.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{nimscope, stdout, temp_dir};

fn sha256_of(path: &std::path::Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().expect("sha256sum runs");
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn stats_name_the_checksum_of_the_values_file() {
    let dir = temp_dir("stats");
    let file = dir.join("g.bin");
    let text = stdout(&[
        "seq",
        "grundy",
        "--to",
        "2^12",
        "--values",
        file.to_str().unwrap(),
        "--stats",
        "--json",
    ]);
    let s: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(s["ruleset"], "grundy");
    assert_eq!(s["n"], 4096);
    // below 2^12 every value is under 128, so fe and 7e make the same heaps rare: the tie
    // goes to the smaller mask (at 2^21, where 231 appears, it is the published fe)
    assert_eq!(s["rare_mask"], "7e");
    assert_eq!(s["method"], "rare/common");
    // the checksum is what sha256sum says of the file
    assert_eq!(s["sha256"].as_str().unwrap(), sha256_of(&file));
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(&bytes[..16], b"NIMSCOPE VALUES\n");
    // one byte a value (Grundy's game stays below 256 here), after a 48-byte header
    assert_eq!(bytes.len(), 48 + 4096);
    // the same values as the text output
    let values = stdout(&["seq", "grundy", "--to", "4096"]);
    let first: Vec<u8> = values
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(&bytes[48..], &first[..]);
    // deterministic: the same command gives the same bytes
    assert_eq!(stdout(&["seq", "grundy", "--to", "2^12", "--stats", "--json"]), text);
}

#[test]
fn counts_and_refusals() {
    let out = nimscope(&["seq", "octal(0.6)", "--to", "2^33"]);
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("--stats or --values"), "{e}");
    let out = nimscope(&["seq", "nim", "--to", "100", "--checkpoint", "/tmp/x"]);
    assert_eq!(out.status.code(), Some(2));
    // 2^33 values of 0.6 need 16 GiB: refused as the values outgrow the budget
    let out = nimscope(&["seq", "octal(0.6)", "--to", "2^33", "--stats", "--memory-budget", "1M"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("budget"));
    // no period, no certificate
    let dir = temp_dir("nocert");
    let out = nimscope(&[
        "seq",
        "octal(0.6)",
        "--to",
        "1000",
        "--certificate",
        dir.join("c").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no period"));
}

/// Reads the count a values file's header holds (0 when it is not there yet).
fn saved_count(path: &std::path::Path) -> u64 {
    std::fs::read(path)
        .ok()
        .filter(|b| b.len() >= 32)
        .map_or(0, |b| u64::from_le_bytes(b[24..32].try_into().unwrap()))
}

/// `seq octal(0.6) --to n --stats --checkpoint ck`, then `extra`: the run every test here
/// stops and resumes.
fn checkpointed<'a>(n: &'a str, ck: &'a std::path::Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "seq",
        "octal(0.6)",
        "--to",
        n,
        "--stats",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

/// The statistics of `seq octal(0.6) --to n --stats --json`, a run never stopped.
fn unstopped(n: &str) -> serde_json::Value {
    let whole = stdout(&["seq", "octal(0.6)", "--to", n, "--stats", "--json"]);
    serde_json::from_str(whole.trim()).unwrap()
}

/// The same command run again on the checkpoint `ck` of octal(0.6) up to `n` finishes with the
/// statistics `whole` of a run that was never stopped, and the file is its values file.
fn resumes_to(ck: &std::path::Path, n: &str, whole: &serde_json::Value) {
    let resumed = stdout(&checkpointed(n, ck, &["--json"]));
    let resumed: serde_json::Value = serde_json::from_str(resumed.trim()).unwrap();
    assert_eq!(&resumed, whole);
    assert_eq!(sha256_of(ck), whole["sha256"].as_str().unwrap());
}

/// A run killed with SIGKILL after a save resumes from its checkpoint to the checksum of a run
/// that was never stopped.
#[test]
fn a_killed_run_resumes_to_the_same_checksum() {
    let dir = temp_dir("kill");
    let ck = dir.join("ck.bin");
    let n = "2^21";
    let whole = unstopped(n);
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args(checkpointed(n, &ck, &["--checkpoint-every", "1"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while saved_count(&ck) < 1 << 16 && start.elapsed() < Duration::from_secs(600) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    let at_kill = saved_count(&ck);
    assert!(at_kill >= 1 << 16, "a save before the kill");
    if status.success() {
        // the machine ran it to the end before the kill: nothing was tested
        assert_eq!(at_kill, 1 << 21);
    } else {
        assert!(at_kill < 1 << 21);
    }
    resumes_to(&ck, n, &whole);
}

/// A run that reaches its soft limit of processor time (SIGXCPU, as `ulimit -S -t` and the
/// record sweep set it) saves its checkpoint, says so in one line and exits with 152; the
/// same command then resumes it to the checksum of a run that was never stopped.
#[test]
#[cfg(target_os = "linux")]
fn a_run_at_its_processor_limit_saves_and_resumes_to_the_same_checksum() {
    use std::os::unix::process::CommandExt;
    let dir = temp_dir("xcpu");
    let ck = dir.join("ck.bin");
    let n = "2^20";
    let whole = unstopped(n);
    let mut command = Command::new(env!("CARGO_BIN_EXE_nimscope"));
    // SAFETY: setrlimit(2) is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1,
                rlim_max: 120,
            };
            if libc::setrlimit(libc::RLIMIT_CPU, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    };
    let out = command
        .args(checkpointed(n, &ck, &[]))
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let at_stop = saved_count(&ck);
    if out.status.success() {
        // the whole run took under a second of processor time: nothing was stopped
        assert_eq!(at_stop, 1 << 20);
    } else {
        assert_eq!(out.status.code(), Some(152), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(
                "error: stopped at the processor-time limit (SIGXCPU); the values found so far are saved in"
            ),
            "{err}"
        );
        assert!(at_stop > 0 && at_stop < 1 << 20, "saved {at_stop}");
    }
    resumes_to(&ck, n, &whole);
}

fn verify(cert: &std::path::Path, extra: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/verify_period.py"))
        .arg(cert)
        .args(extra)
        .output()
        .expect("python3 runs")
}

#[test]
fn verify_period_accepts_the_certificates_and_rejects_altered_ones() {
    let dir = temp_dir("certs");
    for (ruleset, period, preperiod) in [
        ("octal(0.07)", 34, 53),
        ("octal(0.137)", 34, 52),
        ("octal(0.77)", 12, 71),
        ("octal(0.4)", 34, 54),
        ("octal(0.156)", 349, 3479),
        ("sub(1,3,4)", 7, 0),
    ] {
        let cert = dir.join("c.json");
        let values = dir.join("v.bin");
        stdout(&["seq", ruleset, "--to", "2^14", "--certificate", cert.to_str().unwrap()]);
        let c: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
        assert_eq!(
            (c["period"].as_u64(), c["preperiod"].as_u64()),
            (Some(period), Some(preperiod)),
            "{ruleset}"
        );
        let checked = c["checked"].as_u64().unwrap().to_string();
        stdout(&["seq", ruleset, "--to", &checked, "--values", values.to_str().unwrap()]);
        let ok = verify(&cert, &["--values", values.to_str().unwrap()]);
        assert!(
            ok.status.success(),
            "{ruleset}: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&ok.stdout).lines().last(), Some("VERIFIED"));
        // each claim altered: rejected (status 1)
        let alter = |key: &str, v: serde_json::Value| {
            let mut a = c.clone();
            a[key] = v;
            let p = dir.join("altered.json");
            std::fs::write(&p, a.to_string()).unwrap();
            verify(&p, &[])
        };
        let mut altered = vec![
            ("period", serde_json::json!(period + 1)),
            ("checked", serde_json::json!(c["needed"].as_u64().unwrap() - 1)),
            ("values_sha256", serde_json::json!("0".repeat(64))),
        ];
        if preperiod > 0 {
            altered.push(("preperiod", serde_json::json!(preperiod - 1)));
        }
        if ruleset.starts_with("octal") {
            altered.push(("code", serde_json::json!("0.06")));
        } else {
            altered.push(("set", serde_json::json!([1, 3, 5])));
        }
        for (key, v) in altered {
            let out = alter(key, v);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{ruleset} {key}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            assert!(
                String::from_utf8_lossy(&out.stderr).starts_with("REJECTED"),
                "{ruleset} {key}"
            );
        }
        // the values file altered: rejected
        let mut bytes = std::fs::read(&values).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&values, &bytes).unwrap();
        assert_eq!(
            verify(&cert, &["--values", values.to_str().unwrap()]).status.code(),
            Some(1)
        );
    }
}
