//! The tests of the programs `slidedb` and `slidedb-gen`, run as a user
//! runs them (`exe` starts each in its own data folder and working
//! directory), in one harness. The reference BFS and the published data
//! are shared with the library's tests
//! (`tests/support/shared.rs`).

#[path = "../../../tests/support/shared.rs"]
mod shared;

/// The shared helpers under the name the library's tests use, and the
/// move letters applied to the plain cells a program prints.
mod common {
    pub use crate::shared::*;

    /// Applies one move letter (the direction the blank goes) to `cells`,
    /// `cols` wide; fails the test on an illegal move.
    pub fn apply_letter(cells: &mut [u8], cols: usize, letter: char) {
        let rows = cells.len() / cols;
        let blank = cells.iter().position(|&t| t == 0).expect("a blank");
        let (r, c) = (blank / cols, blank % cols);
        let target = match letter {
            'u' if r > 0 => blank - cols,
            'd' if r + 1 < rows => blank + cols,
            'l' if c > 0 => blank - 1,
            'r' if c + 1 < cols => blank + 1,
            _ => panic!("illegal move {letter:?} with the blank at row {r}, column {c}"),
        };
        cells.swap(blank, target);
    }

    /// The cells after every letter of `moves`.
    pub fn apply_letters(cells: &[u8], cols: usize, moves: &str) -> Vec<u8> {
        let mut b = cells.to_vec();
        for letter in moves.chars() {
            apply_letter(&mut b, cols, letter);
        }
        b
    }
}

mod cli;
mod cluster;
mod docs;
mod durability;
mod exe;
mod goals;
mod large;
mod limits;
mod manual;
mod metric;
mod output;
mod page;
mod queries;
mod serve;
mod verify;
