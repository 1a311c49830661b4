//! How messages show text that came from outside (a ruleset, a position, a file name, a field
//! of a session file): on one line a terminal can trust. Control characters (newlines, escape
//! sequences) and the invisible marks that reorder a line are written as escapes (`\n`,
//! `\u{1b}`), never obeyed, so input cannot forge a second error line or recolour the terminal;
//! long input is shortened with an ellipsis, so a 50 MB field gives a short message.

use std::fmt::Write;

/// Longest quoted input shown whole, in characters; longer input keeps its start and its end.
pub const QUOTE_MAX: usize = 60;

/// Longest message, in characters.
pub const LINE_MAX: usize = 1000;

/// Whether `c` would act on a terminal or reorder the text around it instead of showing.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Appends `c` as it is shown: itself, or its escape.
fn push_shown(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_unsafe(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `text` with every control character escaped as Rust writes it (`\n`, `\u{1b}`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_shown(&mut out, c);
    }
    out
}

/// The escaped form of the characters of `chars`, as many whole ones as fit in `max` shown
/// characters; `true` if all of them fit.
fn shown_prefix(chars: impl Iterator<Item = char>, max: usize) -> (Vec<String>, bool) {
    let mut pieces = Vec::new();
    let mut used = 0;
    for c in chars {
        let mut piece = String::new();
        push_shown(&mut piece, c);
        let n = piece.chars().count();
        if used + n > max {
            return (pieces, false);
        }
        used += n;
        pieces.push(piece);
    }
    (pieces, true)
}

/// `text` escaped, and if that is longer than `max` characters, its start and end with `…`
/// between (at most `max` characters in all). Only the parts shown are read, so this is quick
/// on text of any length.
pub fn shorten(text: &str, max: usize) -> String {
    let (whole, fits) = shown_prefix(text.chars(), max);
    if fits {
        return whole.concat();
    }
    let tail_len = max.saturating_sub(1) / 3;
    let head_len = max.saturating_sub(1) - tail_len;
    let (head, _) = shown_prefix(text.chars(), head_len);
    let (mut tail, _) = shown_prefix(text.chars().rev(), tail_len);
    tail.reverse();
    format!("{}…{}", head.concat(), tail.concat())
}

/// `'text'`, escaped and shortened: how a message quotes input.
pub fn quoted(text: &str) -> String {
    format!("'{}'", shorten(text, QUOTE_MAX))
}

/// A message as one line a terminal can trust: control characters escaped, the whole at most
/// [`LINE_MAX`] characters. The input a message holds was quoted, escaped and shortened where
/// the message was made ([`quoted`]); this is the last guard at the border, for text that no
/// one quoted (a library's error), and it reads nothing twice.
pub fn one_line(message: &str) -> String {
    shorten(message, LINE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("a\nb\r\tc\u{1b}[31m"), "a\\nb\\r\\tc\\u{1b}[31m");
        assert_eq!(escape("φ ⊕ ℕ"), "φ ⊕ ℕ");
        assert_eq!(escape("\u{202e}abc"), "\\u{202e}abc");
        assert_eq!(escape("\u{9b}"), "\\u{9b}");
    }

    #[test]
    fn long_text_keeps_its_start_and_end() {
        let s = format!("{}{}", "a".repeat(1000), "z".repeat(1000));
        let short = shorten(&s, 61);
        assert_eq!(short.chars().count(), 61);
        assert!(
            short.starts_with(&"a".repeat(40)) && short.ends_with(&"z".repeat(20)),
            "{short}"
        );
        assert_eq!(short.matches('…').count(), 1);
        assert_eq!(shorten("short", 61), "short");
        // escapes are never cut in half
        let s = "\u{1b}".repeat(100);
        let short = shorten(&s, 20);
        assert!(short.chars().count() <= 20);
        for part in short.split('…') {
            assert_eq!(part.len() % 6, 0, "{short}");
        }
    }

    #[test]
    fn input_is_quoted_where_the_message_is_made_and_the_line_is_bounded() {
        let long = "x".repeat(100_000);
        let m = one_line(&format!(
            "ruleset {}: unknown (at character 1 of {})",
            quoted(&long),
            quoted(&long)
        ));
        assert!(m.chars().count() < 200, "{m}");
        assert!(
            m.starts_with("ruleset 'xxx") && m.contains("': unknown (at character 1 of 'x"),
            "{m}"
        );
        assert!(m.ends_with("x')"), "{m}");
        assert_eq!(quoted("a\nerror: fake"), "'a\\nerror: fake'");
        // apostrophes and quotes in a message are left as they are
        let m = one_line(&format!("seed 003's rule: {} isn't it", "y".repeat(100)));
        assert!(m.contains(&"y".repeat(100)), "{m}");
        // everything is bounded and escaped, quoted or not
        let m = one_line(&"w ".repeat(1_000_000));
        assert!(m.chars().count() <= LINE_MAX);
        assert!(!one_line("a\u{1b}b").contains('\u{1b}'));
        assert_eq!(one_line("a\nb"), "a\\nb");
    }
}
