//! Messages in correct English: a count with its noun (and verb) in the
//! singular for one, the plural otherwise.

/// `n` and `one` when `n` is 1, else `n` and `many`: `1 cell makes`,
/// `3 cells make`. Every message that puts a count before a noun says it
/// through this.
///
/// ```
/// use slidedb::words::counted;
/// assert_eq!(counted(1, "move", "moves"), "1 move");
/// assert_eq!(counted(0, "move", "moves"), "0 moves");
/// assert_eq!(counted(3, "cell makes", "cells make"), "3 cells make");
/// ```
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
