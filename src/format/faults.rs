//! The one table of what can be wrong with a file's bytes, and the words
//! for each: [`FileFault`]. [`FileError`](super::FileError)'s messages are
//! rendered from it, and the JavaScript reader's from a copy of it
//! (`js/src/faults.js`, which a test keeps equal to [`FileFault::ALL`]), so
//! that every front end words a damaged or wrong file the same.

use std::fmt;

/// A kind of fault in a file's bytes, with its sentence and advice: the
/// rows of the one table every reader words its refusals from.
///
/// A sentence is a template: `{name}` is a field of the fault written
/// plainly (a number in decimal, or text), `{name:bytes}` a count of bytes
/// (`1 byte`, `10 bytes`), `{name:hex4}` and `{name:hex8}` a number in
/// lower-case hexadecimal with `0x` and 4 or 8 digits. The whole message
/// is the sentence, then [`joiner`](FileFault::joiner), then
/// [`advice`](FileFault::advice).
///
/// ```
/// use slidedb::FileFault;
/// assert_eq!(FileFault::BadMagic.advice(), "check the path");
/// assert!(FileFault::ALL.contains(&FileFault::NewerVersion));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileFault {
    /// Too few bytes for what the header promises.
    Truncated,
    /// More bytes than the header accounts for.
    TrailingBytes,
    /// The first bytes are not the magic.
    BadMagic,
    /// The endianness mark is wrong.
    Endianness,
    /// A format version older than the one this crate reads.
    OlderVersion,
    /// A format version newer than the one this crate reads.
    NewerVersion,
    /// A header length other than the fixed one.
    HeaderLength,
    /// A checksum does not match.
    Checksum,
    /// A kind of file this crate does not know.
    UnknownKind,
    /// A file of another kind than the one wanted.
    WrongKind,
    /// An entry encoding this crate does not know.
    UnknownEncoding,
    /// Offsets and lengths that do not describe a valid layout.
    Layout,
    /// Metadata that does not decode, or contradicts itself, the header or
    /// the body.
    Metadata,
}

impl FileFault {
    /// Every fault, in the order a reader checks for them.
    pub const ALL: [FileFault; 13] = [
        FileFault::BadMagic,
        FileFault::Truncated,
        FileFault::Endianness,
        FileFault::OlderVersion,
        FileFault::NewerVersion,
        FileFault::Checksum,
        FileFault::HeaderLength,
        FileFault::WrongKind,
        FileFault::UnknownKind,
        FileFault::UnknownEncoding,
        FileFault::Layout,
        FileFault::TrailingBytes,
        FileFault::Metadata,
    ];

    /// The fault's name, as the table and the damaged files' manifest
    /// write it: `"NewerVersion"`.
    pub fn name(self) -> &'static str {
        match self {
            FileFault::Truncated => "Truncated",
            FileFault::TrailingBytes => "TrailingBytes",
            FileFault::BadMagic => "BadMagic",
            FileFault::Endianness => "Endianness",
            FileFault::OlderVersion => "OlderVersion",
            FileFault::NewerVersion => "NewerVersion",
            FileFault::HeaderLength => "HeaderLength",
            FileFault::Checksum => "Checksum",
            FileFault::UnknownKind => "UnknownKind",
            FileFault::WrongKind => "WrongKind",
            FileFault::UnknownEncoding => "UnknownEncoding",
            FileFault::Layout => "Layout",
            FileFault::Metadata => "Metadata",
        }
    }

    /// The [`FileError`](super::FileError) variant it is, by name: the
    /// `code` the JavaScript reader's errors carry (`"Version"` for both
    /// versions, `"Kind"` for an unknown kind, `"Encoding"` for an unknown
    /// encoding).
    pub fn code(self) -> &'static str {
        match self {
            FileFault::OlderVersion | FileFault::NewerVersion => "Version",
            FileFault::UnknownKind => "Kind",
            FileFault::UnknownEncoding => "Encoding",
            other => other.name(),
        }
    }

    /// What is wrong, as a template of the fault's fields (see
    /// [`FileFault`]).
    pub fn sentence(self) -> &'static str {
        match self {
            FileFault::Truncated => "the file is truncated: {got:bytes}, but {expected} are needed",
            FileFault::TrailingBytes => {
                "the file has {got:bytes}, but its header accounts for {expected}: it is damaged"
            }
            FileFault::BadMagic => {
                "not a slidedb file (it does not start with the bytes of SLIDEDB and a zero)"
            }
            FileFault::Endianness => {
                "bad endianness mark {got:hex4} (expected {expected:hex4}): the file is damaged"
            }
            FileFault::OlderVersion => {
                "format version {got}, written by an older slidedb (the oldest this one reads is version {expected})"
            }
            FileFault::NewerVersion => {
                "format version {got}, written by a newer slidedb (this one reads version {expected})"
            }
            FileFault::HeaderLength => {
                "header length {got}, expected {expected}: the file is damaged"
            }
            FileFault::Checksum => {
                "the {section} checksum does not match (stored {stored:hex8}, computed {computed:hex8}): the file is damaged"
            }
            FileFault::UnknownKind => "unknown file kind {got}: made by a newer slidedb?",
            FileFault::WrongKind => "this file is {got}, not {expected}",
            FileFault::UnknownEncoding => "unknown entry encoding {got}: made by a newer slidedb?",
            FileFault::Layout => "bad layout: {what}: the file is damaged",
            FileFault::Metadata => "bad metadata: {what}: the file is damaged",
        }
    }

    /// What to do about it: `rebuild it`, `check the path`, ….
    pub fn advice(self) -> &'static str {
        match self {
            FileFault::BadMagic | FileFault::WrongKind => "check the path",
            FileFault::UnknownKind | FileFault::UnknownEncoding => "rebuild it with this one",
            FileFault::NewerVersion => "use that slidedb, or rebuild it",
            FileFault::Truncated
            | FileFault::TrailingBytes
            | FileFault::Endianness
            | FileFault::OlderVersion
            | FileFault::HeaderLength
            | FileFault::Checksum
            | FileFault::Layout
            | FileFault::Metadata => "rebuild it",
        }
    }

    /// What stands between the sentence and the advice: `"; "` after a
    /// fault (`…: the file is damaged; rebuild it`), `": "` after a finding
    /// the advice follows from (`…: check the path`), `" "` after a
    /// question (`made by a newer slidedb? rebuild it with this one`).
    pub fn joiner(self) -> &'static str {
        match self {
            FileFault::UnknownKind | FileFault::UnknownEncoding => " ",
            FileFault::BadMagic
            | FileFault::WrongKind
            | FileFault::OlderVersion
            | FileFault::NewerVersion => ": ",
            _ => "; ",
        }
    }

    /// The fault of this name ([`name`](FileFault::name)), if any.
    pub fn from_name(name: &str) -> Option<FileFault> {
        FileFault::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for FileFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A field's value, for [`render`].
pub(super) enum Field<'a> {
    /// A number.
    Number(u64),
    /// Text, written as it is.
    Text(&'a dyn fmt::Display),
}

/// Writes `template` (a [`FileFault::sentence`]) with its fields filled in
/// from `fields`, by name.
pub(super) fn render(
    f: &mut fmt::Formatter<'_>,
    template: &str,
    fields: &[(&str, Field<'_>)],
) -> fmt::Result {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        f.write_str(&rest[..open])?;
        let close = open + rest[open..].find('}').expect("a closed field in the table");
        let (name, style) = match rest[open + 1..close].split_once(':') {
            Some((name, style)) => (name, style),
            None => (&rest[open + 1..close], ""),
        };
        let (_, value) = fields
            .iter()
            .find(|(n, _)| *n == name)
            .expect("every field of the sentence given");
        match (value, style) {
            (Field::Number(n), "bytes") => {
                f.write_str(&crate::words::counted(*n, "byte", "bytes"))?
            }
            (Field::Number(n), "hex4") => write!(f, "{n:#06x}")?,
            (Field::Number(n), "hex8") => write!(f, "{n:#010x}")?,
            (Field::Number(n), _) => write!(f, "{n}")?,
            (Field::Text(t), _) => write!(f, "{t}")?,
        }
        rest = &rest[close + 1..];
    }
    f.write_str(rest)
}

#[cfg(test)]
mod tests {
    use super::FileFault;

    #[test]
    fn every_field_of_every_sentence_is_closed_and_styled_as_the_table_says() {
        for fault in FileFault::ALL {
            let mut rest = fault.sentence();
            while let Some(open) = rest.find('{') {
                let close = open + rest[open..].find('}').expect("closed");
                let field = &rest[open + 1..close];
                if let Some((_, style)) = field.split_once(':') {
                    assert!(
                        ["bytes", "hex4", "hex8"].contains(&style),
                        "{fault}: {field}"
                    );
                }
                rest = &rest[close + 1..];
            }
            assert!(!rest.contains('}'), "{fault}");
            assert_eq!(FileFault::from_name(fault.name()), Some(fault));
        }
    }
}
