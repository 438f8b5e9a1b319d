// The table of file faults: what can be wrong with a file's bytes, and the
// words for each. Generated from the Rust library's table
// (`slidedb::FileFault::ALL`, src/format/faults.rs) by
// `SLIDEDB_BLESS=1 cargo test --test integration damaged`, whose test fails
// while this file differs from it: do not edit it by hand.
//
// A sentence is a template: `{name}` a field written plainly, `{name:bytes}`
// a count of bytes ("1 byte", "10 bytes"), `{name:hex4}` and `{name:hex8}`
// a number in hexadecimal with 0x and 4 or 8 digits. A message is the
// sentence, the joiner, the advice.

/** The faults by name: the error's `code`, `sentence`, `joiner` and `advice`. */
export const FAULTS = Object.freeze({
  BadMagic: Object.freeze({
    code: "BadMagic",
    sentence: "not a slidedb file (it does not start with the bytes of SLIDEDB and a zero)",
    joiner: ": ",
    advice: "check the path",
  }),
  Truncated: Object.freeze({
    code: "Truncated",
    sentence: "the file is truncated: {got:bytes}, but {expected} are needed",
    joiner: "; ",
    advice: "rebuild it",
  }),
  Endianness: Object.freeze({
    code: "Endianness",
    sentence: "bad endianness mark {got:hex4} (expected {expected:hex4}): the file is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
  OlderVersion: Object.freeze({
    code: "Version",
    sentence: "format version {got}, written by an older slidedb (the oldest this one reads is version {expected})",
    joiner: ": ",
    advice: "rebuild it",
  }),
  NewerVersion: Object.freeze({
    code: "Version",
    sentence: "format version {got}, written by a newer slidedb (this one reads version {expected})",
    joiner: ": ",
    advice: "use that slidedb, or rebuild it",
  }),
  Checksum: Object.freeze({
    code: "Checksum",
    sentence: "the {section} checksum does not match (stored {stored:hex8}, computed {computed:hex8}): the file is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
  HeaderLength: Object.freeze({
    code: "HeaderLength",
    sentence: "header length {got}, expected {expected}: the file is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
  WrongKind: Object.freeze({
    code: "WrongKind",
    sentence: "this file is {got}, not {expected}",
    joiner: ": ",
    advice: "check the path",
  }),
  UnknownKind: Object.freeze({
    code: "Kind",
    sentence: "unknown file kind {got}: made by a newer slidedb?",
    joiner: " ",
    advice: "rebuild it with this one",
  }),
  UnknownEncoding: Object.freeze({
    code: "Encoding",
    sentence: "unknown entry encoding {got}: made by a newer slidedb?",
    joiner: " ",
    advice: "rebuild it with this one",
  }),
  Layout: Object.freeze({
    code: "Layout",
    sentence: "bad layout: {what}: the file is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
  TrailingBytes: Object.freeze({
    code: "TrailingBytes",
    sentence: "the file has {got:bytes}, but its header accounts for {expected}: it is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
  Metadata: Object.freeze({
    code: "Metadata",
    sentence: "bad metadata: {what}: the file is damaged",
    joiner: "; ",
    advice: "rebuild it",
  }),
});
