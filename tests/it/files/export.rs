//! Where `nimscope export` writes, and what it refuses: never over its own input, through a
//! symlink to its target (never replacing the link), straight into a FIFO (never replacing
//! it), keeping the mode of the file it replaces, refusing read-only files and folders; the
//! figure size refusals agree with themselves; titles beyond Latin-1 reach the PNG.

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Output;

use nimscope_core::figure::png_out::read_text_chunks;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

use crate::common::nimscope;

use crate::common::{example, mkfifo, temp_dir};

/// A small, quick export of `session` to `out` with extra arguments (400 pixels wide unless
/// they say otherwise).
fn export(session: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["export", session.to_str().unwrap(), "-o", out.to_str().unwrap()];
    if !extra.contains(&"--width") {
        args.extend(["--width", "400"]);
    }
    args.extend_from_slice(extra);
    nimscope(&args)
}

/// The one `error:` line of a refused command (exit status 2, no panic).
fn refusal(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err:?}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn succeeded(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// No temporary files are left in `dir`.
fn no_leftovers(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp"), "left behind: {name}");
    }
}

#[test]
fn export_refuses_to_write_over_its_own_session() {
    let dir = temp_dir("input");
    let session = dir.join("s.ron");
    std::fs::copy(example("euclid-winning-pairs.ron"), &session).unwrap();
    let before = std::fs::read(&session).unwrap();
    let err = refusal(&export(&session, &session, &[]));
    assert!(err.contains("s.ron"), "{err}");
    // the same file by another name: a symlink, a hard link, a path through `..`
    std::os::unix::fs::symlink(&session, dir.join("link.ron")).unwrap();
    std::fs::hard_link(&session, dir.join("hard.ron")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    for other in [dir.join("link.ron"), dir.join("hard.ron"), dir.join("sub/../s.ron")] {
        refusal(&export(&session, &other, &[]));
    }
    assert_eq!(std::fs::read(&session).unwrap(), before, "the session is untouched");
    assert!(
        std::fs::symlink_metadata(dir.join("link.ron"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    no_leftovers(&dir);
}

#[test]
fn a_symlink_is_followed_to_its_target_and_stays_a_symlink() {
    let dir = temp_dir("symlink");
    let real = dir.join("real.png");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("link.png");
    std::os::unix::fs::symlink("real.png", &link).unwrap();
    succeeded(&export(&example("euclid-winning-pairs.ron"), &link, &[]));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.png"));
    assert!(std::fs::read(&real).unwrap().starts_with(PNG_SIGNATURE));
    // a symlink to nothing is refused, and stays as it was
    let dangling = dir.join("dangling.png");
    std::os::unix::fs::symlink("missing.png", &dangling).unwrap();
    let o = export(&example("euclid-winning-pairs.ron"), &dangling, &[]);
    if o.status.success() {
        assert!(
            std::fs::read(dir.join("missing.png"))
                .unwrap()
                .starts_with(PNG_SIGNATURE)
        );
    } else {
        refusal(&o);
    }
    assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
    no_leftovers(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_is_written_to_and_stays_a_fifo() {
    use std::io::Read;
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.png");
    mkfifo(&fifo);
    let (send, receive) = std::sync::mpsc::channel();
    let reader_path = fifo.clone();
    std::thread::Builder::new()
        .name("fifo-reader".into())
        .spawn(move || {
            // blocks until a writer opens the FIFO; left blocked (and the test failing) if none does
            let mut bytes = Vec::new();
            if let Ok(mut f) = std::fs::File::open(&reader_path) {
                let _ = f.read_to_end(&mut bytes);
            }
            let _ = send.send(bytes);
        })
        .unwrap();
    succeeded(&export(&example("euclid-winning-pairs.ron"), &fifo, &[]));
    let ty = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(ty.is_fifo(), "the FIFO was replaced by {ty:?}");
    let bytes = receive
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the figure went through the FIFO");
    assert!(bytes.starts_with(PNG_SIGNATURE));
    no_leftovers(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn standard_output_gets_the_png_and_nothing_else() {
    let dir = temp_dir("stdout");
    let file = dir.join("f.png");
    succeeded(&export(&example("euclid-winning-pairs.ron"), &file, &[]));
    // stdout is a pipe here
    let o = export(&example("euclid-winning-pairs.ron"), Path::new("/dev/stdout"), &[]);
    succeeded(&o);
    assert_eq!(o.stdout, std::fs::read(&file).unwrap());
}

#[test]
fn a_replaced_file_keeps_its_mode_and_a_read_only_one_is_refused() {
    let dir = temp_dir("mode");
    let out = dir.join("shared.png");
    std::fs::write(&out, b"old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    succeeded(&export(&example("euclid-winning-pairs.ron"), &out, &[]));
    assert_eq!(std::fs::metadata(&out).unwrap().mode() & 0o7777, 0o640);
    assert!(std::fs::read(&out).unwrap().starts_with(PNG_SIGNATURE));
    let locked = dir.join("locked.png");
    std::fs::write(&locked, b"keep me").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = refusal(&export(&example("euclid-winning-pairs.ron"), &locked, &[]));
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read(&locked).unwrap(), b"keep me");
    assert_eq!(std::fs::metadata(&locked).unwrap().mode() & 0o7777, 0o444);
    // a new file gets the usual mode (the umask's), not a temporary file's
    let fresh = dir.join("fresh.png");
    succeeded(&export(&example("euclid-winning-pairs.ron"), &fresh, &[]));
    let mode = std::fs::metadata(&fresh).unwrap().mode() & 0o777;
    assert_eq!(mode & 0o600, 0o600, "{mode:o}");
    no_leftovers(&dir);
}

#[test]
fn a_folder_is_not_an_output_file() {
    let dir = temp_dir("folder");
    let err = refusal(&export(&example("euclid-winning-pairs.ron"), &dir, &[]));
    assert!(err.contains("folder") || err.contains("directory"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// The least width stated by a refusal (the first number followed by " pixels" after "at
/// least").
fn stated_least(err: &str) -> u32 {
    let at = err
        .find("at least ")
        .unwrap_or_else(|| panic!("no 'at least' in {err}"));
    let digits: String = err[at + 9..].chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after 'at least' in {err}"))
}

#[test]
fn the_width_refusal_states_the_width_that_works() {
    let dir = temp_dir("width");
    let out = dir.join("w.png");
    let session = example("euclid-winning-pairs.ron");
    // the case: 64 pixels refused by a message saying "at least 64"
    let err = refusal(&export(&session, &out, &["--width", "64"]));
    assert!(stated_least(&err) > 64, "{err}");
    for args in [&[][..], &["--no-axes", "--no-legend", "--title", "-"]] {
        let mut with = vec!["--width", "20"];
        with.extend_from_slice(args);
        let err = refusal(&export(&session, &out, &with));
        let least = stated_least(&err);
        assert!(least > 20, "{err}");
        let (ok, too_small) = (least.to_string(), (least - 1).to_string());
        let mut with = vec!["--width", ok.as_str()];
        with.extend_from_slice(args);
        let o = export(&session, &out, &with);
        succeeded(&o);
        assert_eq!(image::open(&out).unwrap().width(), least);
        let mut with = vec!["--width", too_small.as_str()];
        with.extend_from_slice(args);
        assert_eq!(stated_least(&refusal(&export(&session, &out, &with))), least);
    }
}

#[test]
fn scales_that_make_no_figure_are_refused_cleanly() {
    let dir = temp_dir("scale");
    let out = dir.join("s.png");
    let session = example("euclid-winning-pairs.ron");
    for scale in ["0.0001", "1e18", "1e300", "inf", "NaN", "0", "-2"] {
        let o = nimscope(&[
            "export",
            session.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--scale",
            scale,
        ]);
        refusal(&o);
        assert!(!out.exists(), "--scale {scale} wrote a figure");
    }
    // a scale that works gives a map of that many pixels a cell: 29 columns at 4 pixels
    let o = nimscope(&[
        "export",
        session.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--scale",
        "4",
    ]);
    succeeded(&o);
}

#[test]
fn a_title_beyond_latin_1_reaches_the_png() {
    let dir = temp_dir("title");
    let out = dir.join("t.png");
    let o = export(
        &example("zeruclid-figure2.ron"),
        &out,
        &["--title", "Zeruclid φ: G(1, a, b) → ℕ"],
    );
    succeeded(&o);
    let text = read_text_chunks(&std::fs::read(&out).unwrap()).unwrap();
    let title = text.iter().find(|(k, _)| k == "Title").map(|(_, v)| v.as_str());
    assert_eq!(title, Some("Zeruclid φ: G(1, a, b) → ℕ"));
    assert!(text.iter().any(|(k, v)| k == "nimscope.ruleset" && v == "zeruclid"));
}
