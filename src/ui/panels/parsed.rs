//! A text the user types and what it parses to, parsed again only when the text changes: the
//! panels read the parsed value every frame (to choose their widgets, to compare, to save)
//! without parsing anything, and a value chosen elsewhere (a session, the catalog) is written
//! back as its text with no parse at all.

/// The text last parsed and its result.
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    last: Option<(String, Result<T, String>)>,
}

impl<T> Default for Parsed<T> {
    fn default() -> Self {
        Parsed { last: None }
    }
}

impl<T> Parsed<T> {
    /// What `text` parses to: the result kept from the last call when the text is the same,
    /// else `parse(text)`, kept for the next call.
    pub fn of(&mut self, text: &str, parse: impl FnOnce(&str) -> Result<T, String>) -> &Result<T, String> {
        let last = match self.last.take() {
            Some((t, result)) if t == text => (t, result),
            _ => (text.to_string(), parse(text)),
        };
        &self.last.insert(last).1
    }

    /// Records that `text` is `value` (a value that was its own text's parse, shown again
    /// without parsing it).
    pub fn set(&mut self, text: String, value: T) {
        self.last = Some((text, Ok(value)));
    }

    /// The result of the last parse, if its text is `text`.
    pub fn cached(&self, text: &str) -> Option<&Result<T, String>> {
        self.last.as_ref().filter(|(t, _)| t == text).map(|(_, r)| r)
    }
}
