//! The evidence a plan's files carry: a key of the plan's own and the digests made with it.
//!
//! `--plan` draws 32 random bytes from the system (`getrandom`) and writes them to
//! `DIR/plan.key` (hex, readable by its owner only). Every file the hunt writes is tagged
//! with HMAC-SHA256 under that key: the plan (its seal, over its id), each answer (over every
//! field: plan, unit, board, question asked, round, answer, the nimscope that found it, what it
//! spent) and each proven-values file (over all of its bytes). The plan's id is the SHA-256 of
//! its contents (board, game, question, depth, tree, units).
//!
//! What this protects against: an answer or a plan edited by hand (an outcome flipped, a value
//! changed, a board replaced and the ids recomputed), a file damaged on disk or in a copy, an
//! answer or proven-values file of another plan, even of the same board (another key: a
//! colleague's folder merged into this one), and a proven-values file crafted to break the
//! reader. Each is refused with one line naming the file.
//!
//! What it does not protect against: anyone who can read `plan.key` can tag anything (keep
//! it where only the hunt's jobs read it, and leave it out when the plan and its answers are
//! published: a reader without the key checks the answers by asking units again,
//! `nimscope cram --verify`); a node that computes a wrong answer tags it as well as a right
//! one (a faulty machine, a bug of that nimscope: `--verify` re-asks units from scratch, and
//! answers name the nimscope that wrote them); an old answer restored from a backup of the
//! same plan is accepted (it was true when written: answers are facts about positions, which
//! do not change).

use std::path::{Path, PathBuf};

use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};

use super::PlanError;

type HmacSha256 = hmac::Hmac<Sha256>;

/// The key's file inside the plan's folder.
pub const KEY_FILE: &str = "plan.key";

/// Bytes of a key.
const KEY_BYTES: usize = 32;

/// The prefix of every tag in text form (the algorithm, for a reader of the file).
pub const TAG_PREFIX: &str = "hmac-sha256:";

/// A plan's key.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; KEY_BYTES]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

/// What a tag covers, so that a tag made for one kind of file never fits another.
#[derive(Debug, Clone, Copy)]
pub enum Domain {
    /// A plan's seal, over its id.
    Plan,
    /// An answer file, over its bytes less the tag.
    Answer,
    /// A proven-values file, over its bytes less the tag.
    Proven,
}

impl Domain {
    fn label(self) -> &'static [u8] {
        match self {
            Domain::Plan => b"nimscope cram plan\0",
            Domain::Answer => b"nimscope cram answer\0",
            Domain::Proven => b"nimscope cram proven values\0",
        }
    }
}

/// A tag under way, for files written or read in pieces.
pub struct Tagger(HmacSha256);

impl Tagger {
    /// Adds `bytes` to what the tag covers.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The tag of everything added.
    pub fn finish(self) -> [u8; 32] {
        self.0.finalize().into_bytes().into()
    }

    /// Whether `tag` is this one (compared in constant time).
    pub fn matches(self, tag: &[u8]) -> bool {
        self.0.verify_slice(tag).is_ok()
    }
}

impl Key {
    /// A new key from the system's randomness.
    pub fn generate() -> Result<Key, PlanError> {
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|e| PlanError::Refused(format!("no randomness for the plan's key: {e}")))?;
        Ok(Key(bytes))
    }

    /// A key of given bytes (tests).
    #[cfg(test)]
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> Key {
        Key(bytes)
    }

    /// A tag under this key for a file of `domain`, to be given its bytes in pieces.
    pub fn tagger(&self, domain: Domain) -> Tagger {
        #[expect(clippy::expect_used, reason = "HMAC takes keys of any length")]
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("an HMAC key of 32 bytes");
        mac.update(domain.label());
        Tagger(mac)
    }

    /// The tag of `bytes`, in text form (`hmac-sha256:` and 64 hex digits).
    pub fn tag_text(&self, domain: Domain, bytes: &[u8]) -> String {
        let mut t = self.tagger(domain);
        t.update(bytes);
        format!("{TAG_PREFIX}{}", hex(&t.finish()))
    }

    /// Whether `text` is the tag of `bytes` (compared in constant time).
    pub fn check_text(&self, domain: Domain, bytes: &[u8], text: &str) -> bool {
        let Some(tag) = text.strip_prefix(TAG_PREFIX).and_then(unhex) else {
            return false;
        };
        let mut t = self.tagger(domain);
        t.update(bytes);
        t.matches(&tag)
    }

    /// The key's file in the plan's folder `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(KEY_FILE)
    }

    /// Reads the plan's key from `dir`.
    pub fn load(dir: &Path) -> Result<Key, PlanError> {
        let path = Key::path(dir);
        let text = crate::files::read_bounded(&path, 1 << 10, "a plan key").map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => PlanError::Mismatch {
                path: path.clone(),
                why: "missing: the key that signs this plan's answers is not in the plan's folder (copy it back; without it no answer can be checked, and `nimscope cram --verify` asks the units again)".into(),
            },
            _ => PlanError::io(&path, e),
        })?;
        let text = String::from_utf8_lossy(&text);
        let bytes = unhex(text.trim())
            .filter(|b| b.len() == KEY_BYTES)
            .ok_or_else(|| PlanError::Damaged {
                path: path.clone(),
                why: format!("not a key ({} hex digits expected)", 2 * KEY_BYTES),
            })?;
        let mut key = [0u8; KEY_BYTES];
        key.copy_from_slice(&bytes);
        Ok(Key(key))
    }

    /// Writes the key to `dir` (readable by its owner only), atomically.
    pub fn save(&self, dir: &Path) -> Result<(), PlanError> {
        let path = Key::path(dir);
        let text = format!("{}\n", hex(&self.0));
        crate::files::write_with(&path, crate::files::Accept::FileOnly, |f| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
            std::io::Write::write_all(f, text.as_bytes())
        })
        .map_err(|e| PlanError::io(&path, e))
    }
}

/// The SHA-256 of `bytes`, in hex: a plan's id.
pub fn digest_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` in lowercase hex, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_is_the_rfc_4231_one() {
        // RFC 4231, test case 2 (key "Jefe"), checked through the streaming API with an
        // empty domain label replaced by the raw MAC.
        let mut mac = HmacSha256::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            digest_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_tag_fits_its_bytes_its_domain_and_its_key_only() {
        let (a, b) = (Key::from_bytes([1; 32]), Key::from_bytes([2; 32]));
        let tag = a.tag_text(Domain::Answer, b"unit 3: P");
        assert!(a.check_text(Domain::Answer, b"unit 3: P", &tag));
        assert!(!a.check_text(Domain::Answer, b"unit 3: N", &tag));
        assert!(!a.check_text(Domain::Plan, b"unit 3: P", &tag));
        assert!(!b.check_text(Domain::Answer, b"unit 3: P", &tag));
        assert!(!a.check_text(Domain::Answer, b"unit 3: P", "hmac-sha256:zz"));
        assert!(!a.check_text(Domain::Answer, b"unit 3: P", &tag[..tag.len() - 2]));
    }
}
