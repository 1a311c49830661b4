//! Finding a field in RON text by its path of keys, so an error names the line and column
//! where the file writes it.

/// Where the field `path` is written in RON `text`, as a line and column from 1: `["inspector",
/// "shown"]` is the key `shown:` inside the value of `inspector:` (the keys of the values
/// between, such as `Some(…)`, do not count). `None` when the text leaves the field out. Strings,
/// characters and comments are skipped, so a key written inside the notes is not taken for one.
pub fn locate(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    // the key whose value each open bracket starts (None for a bracket inside a value)
    let mut open: Vec<Option<&str>> = Vec::new();
    let mut pending: Option<&str> = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i),
            b'\'' => i = skip_char(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block(b, i),
            b'(' | b'[' | b'{' => {
                open.push(pending.take());
                i += 1;
            }
            b')' | b']' | b'}' => {
                open.pop();
                pending = None;
                i += 1;
            }
            b',' => {
                pending = None;
                i += 1;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => i = skip_raw_string(b, i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                let next = skip_space(b, i);
                if b.get(next) == Some(&b':') && b.get(next + 1) != Some(&b':') {
                    let keys: Vec<&str> = open.iter().flatten().copied().collect();
                    if keys.len() + 1 == path.len() && keys[..] == path[..keys.len()] && word == path[keys.len()] {
                        return Some(line_and_column(text, start));
                    }
                    pending = Some(word);
                }
            }
            c if c.is_ascii_digit() => {
                // a number, exponent letters and all (`1e300`)
                while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'.' | b'_')) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    None
}

pub(super) fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// The index after the string starting at `i`.
pub(super) fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The index after the raw string `r"…"` or `r#"…"#` starting at `i` (or after `r` if it is
/// not one).
pub(super) fn skip_raw_string(b: &[u8], i: usize) -> usize {
    let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
    let quote = i + 1 + hashes;
    if b.get(quote) != Some(&b'"') {
        return i + 1;
    }
    let mut j = quote + 1;
    while j < b.len() {
        if b[j] == b'"' && b[j + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes {
            return j + 1 + hashes;
        }
        j += 1;
    }
    b.len()
}

/// The index after the character literal starting at `i` (`'a'`, `'\n'`, `'\''`).
pub(super) fn skip_char(b: &[u8], i: usize) -> usize {
    let from = if b.get(i + 1) == Some(&b'\\') { i + 3 } else { i + 2 };
    b.get(from..)
        .and_then(|rest| rest.iter().position(|&c| c == b'\''))
        .map_or(b.len(), |k| from + k + 1)
}

pub(super) fn skip_line(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k + 1)
}

/// The index after the block comment starting at `i` (RON's nest).
pub(super) fn skip_block(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The index of the first byte from `i` that is neither white space nor in a comment.
pub(super) fn skip_space(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(b'/') if b.get(i + 1) == Some(&b'/') => i = skip_line(b, i),
            Some(b'/') if b.get(i + 1) == Some(&b'*') => i = skip_block(b, i),
            _ => return i,
        }
    }
}
