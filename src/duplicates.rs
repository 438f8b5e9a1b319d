//! Pruning duplicate move sequences: a finite-state machine over the
//! blank's moves that refuses every sequence with an equivalent that comes
//! first, so that a depth-first search walks far fewer paths to the same
//! boards (Taylor and Korf, 1993).
//!
//! Two sequences of moves from the same blank cell are *equivalent* when
//! they leave every tile in the same place. Order all sequences shortest
//! first, then by their moves in [`Move::ALL`] order. A sequence is
//! *redundant* when an equivalent comes before it; then so is every
//! sequence that contains it, since putting the earlier equivalent in its
//! place gives an earlier sequence with the same effect. So the first
//! sequence between two boards (a shortest one, since shorter comes first)
//! contains no redundant part, and a search that refuses every move that
//! completes a redundant part still finds a shortest path.
//!
//! [`DuplicateFilter::new`] finds, by a breadth-first search from each
//! blank cell over sequences up to a length, the redundant sequences whose
//! every proper part is not redundant, and builds an Aho–Corasick automaton
//! that recognises them as the moves go by. Refusing the undo of the last
//! move (the redundant `ud`, `lr` and their mirrors) is the shortest case;
//! the next is the blank's walk one and a half times round a 2×2 square,
//! `rdlurd`, which the walk the other way, `druldr`, equals and precedes
//! (so the walk three times round, `rdlurdlurdlu`, is refused at its sixth
//! move). A state of the automaton is the longest tail of the
//! moves so far that begins a redundant sequence, so it knows the blank's
//! cell; a move from it leads to another state or is refused.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use crate::board::{Adjacency, MAX_CELLS, Move, Shape};

/// The transition that refuses a move: it completes a redundant sequence.
pub(crate) const REFUSED: u32 = u32::MAX;

/// The longest redundant sequences looked for: on the 5×5 board, 61,295
/// states (1 MB) and about half a second to build, and the number of move
/// sequences of a given length falls by about 4 % a move (its branching
/// factor from 2.3676 with only undos refused to 2.2714; on the 4×4, from
/// 2.1304 to 2.0079).
pub(crate) const MAX_LENGTH: usize = 12;

/// An automaton over the blank's moves on one shape that refuses every
/// move completing a redundant sequence. State `c` (for `c` below the
/// number of cells) is the start with the blank in cell `c`.
#[derive(Debug)]
pub(crate) struct DuplicateFilter {
    shape: Shape,
    /// `next[state][mv as usize]`: the state after the move, or
    /// [`REFUSED`] (also for a move off the board).
    next: Vec<[u32; 4]>,
}

impl DuplicateFilter {
    /// The filter of `shape`'s redundant sequences up to `max_length`
    /// moves.
    pub(crate) fn new(shape: Shape, max_length: usize) -> DuplicateFilter {
        // A sequence is kept as two bits a move in a `u64`.
        assert!(max_length <= 32, "sequences of at most 32 moves");
        let n = shape.cells();
        let adjacency = Adjacency::new(shape);
        let neighbour = |cell: usize, mv: Move| -> Option<usize> {
            adjacency
                .from(cell)
                .iter()
                .find(|&&(m, _)| m == mv)
                .map(|&(_, to)| to as usize)
        };
        let redundant = redundant_sequences(n, max_length, &neighbour);
        // The trie of the sequences, with one root for each blank cell;
        // each node knows its cell (where its sequence leaves the blank).
        let mut trie: Vec<[u32; 4]> = vec![[REFUSED; 4]; n];
        let mut cell_of: Vec<u8> = (0..n as u8).collect();
        let mut ends: Vec<bool> = vec![false; n];
        for (start, moves) in &redundant {
            let (mut state, mut cell) = (*start, *start);
            for &mv in moves {
                cell = neighbour(cell, mv).expect("a sequence stays on the board");
                if trie[state][mv as usize] == REFUSED {
                    trie[state][mv as usize] = trie.len() as u32;
                    trie.push([REFUSED; 4]);
                    cell_of.push(cell as u8);
                    ends.push(false);
                }
                state = trie[state][mv as usize] as usize;
            }
            ends[state] = true;
        }
        // Aho–Corasick, breadth first: a node's failure is the state of
        // the longest proper tail of its sequence, which ends in the same
        // cell (a root's, for the empty tail).
        let mut next = trie.clone();
        let mut fail = vec![0u32; trie.len()];
        let mut queue = VecDeque::new();
        for root in 0..n {
            for mv in Move::ALL {
                let Some(to) = neighbour(root, mv) else {
                    continue;
                };
                let child = trie[root][mv as usize];
                if child == REFUSED {
                    next[root][mv as usize] = to as u32;
                } else {
                    fail[child as usize] = to as u32;
                    queue.push_back(child as usize);
                }
            }
        }
        while let Some(u) = queue.pop_front() {
            ends[u] |= ends[fail[u] as usize];
            let cell = cell_of[u] as usize;
            for mv in Move::ALL {
                if neighbour(cell, mv).is_none() {
                    continue;
                }
                let via_fail = next[fail[u] as usize][mv as usize];
                let child = trie[u][mv as usize];
                if child == REFUSED {
                    next[u][mv as usize] = via_fail;
                } else {
                    fail[child as usize] = via_fail;
                    queue.push_back(child as usize);
                }
            }
        }
        // A move into a state that ends a redundant sequence is refused.
        // (Breadth first, a node's failure is finished before the node.)
        for row in &mut next {
            for to in row.iter_mut() {
                if *to != REFUSED && ends[*to as usize] {
                    *to = REFUSED;
                }
            }
        }
        DuplicateFilter { shape, next }
    }

    /// The filter of `shape` up to [`MAX_LENGTH`] moves, built once a
    /// process and shape.
    pub(crate) fn of(shape: Shape) -> Arc<DuplicateFilter> {
        static BUILT: Mutex<Vec<Arc<DuplicateFilter>>> = Mutex::new(Vec::new());
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(filter) = built.iter().find(|f| f.shape == shape) {
            return Arc::clone(filter);
        }
        let filter = Arc::new(DuplicateFilter::new(shape, MAX_LENGTH));
        built.push(Arc::clone(&filter));
        filter
    }

    /// The start state with the blank in `cell`.
    #[inline]
    pub(crate) fn start(&self, cell: usize) -> u32 {
        cell as u32
    }

    /// The state after `mv` from `state`, or [`REFUSED`].
    #[inline(always)]
    pub(crate) fn step(&self, state: u32, mv: Move) -> u32 {
        self.next[state as usize][mv as usize]
    }

    /// How many states it has.
    #[cfg(test)]
    fn states(&self) -> usize {
        self.next.len()
    }
}

/// From each of `n` blank cells, the redundant sequences of up to
/// `max_length` moves whose every proper part is not redundant: a
/// breadth-first search over sequences, shortest first and each length in
/// [`Move::ALL`] order, that extends only sequences not redundant; a
/// sequence reaching an arrangement met before is redundant (its prefix is
/// not), and is kept if its tail without the first move is not redundant
/// either.
fn redundant_sequences(
    n: usize,
    max_length: usize,
    neighbour: &dyn Fn(usize, Move) -> Option<usize>,
) -> Vec<(usize, Vec<Move>)> {
    // A sequence's moves, two bits each, and its length.
    type Code = (u64, u8);
    let pack = |tiles: &[u8; MAX_CELLS]| {
        tiles[..n]
            .iter()
            .fold(0u128, |key, &t| key << 5 | t as u128)
    };
    let mut first: Vec<HashSet<Code>> = vec![HashSet::new(); n];
    let mut found: Vec<(usize, Code)> = Vec::new();
    for (start, firsts) in first.iter_mut().enumerate() {
        let tiles: [u8; MAX_CELLS] = std::array::from_fn(|c| c as u8);
        let mut seen: HashSet<u128> = HashSet::from([pack(&tiles)]);
        firsts.insert((0, 0));
        let mut layer = vec![(tiles, start, 0u64)];
        for length in 1..=max_length as u8 {
            let mut following = Vec::new();
            for (tiles, blank, code) in &layer {
                for mv in Move::ALL {
                    let Some(to) = neighbour(*blank, mv) else {
                        continue;
                    };
                    let mut after = *tiles;
                    after.swap(*blank, to);
                    let code = code << 2 | mv as u64;
                    if seen.insert(pack(&after)) {
                        firsts.insert((code, length));
                        following.push((after, to, code));
                    } else {
                        found.push((start, (code, length)));
                    }
                }
            }
            layer = following;
        }
    }
    let moves = |(code, length): Code| -> Vec<Move> {
        (0..length)
            .rev()
            .map(|i| Move::ALL[(code >> (2 * i as u32) & 3) as usize])
            .collect()
    };
    found
        .into_iter()
        .filter_map(|(start, code)| {
            let moves = moves(code);
            let tail_start = neighbour(start, moves[0]).expect("a sequence stays on the board");
            let tail = (
                code.0 & ((1u64 << (2 * (code.1 - 1) as u32)) - 1),
                code.1 - 1,
            );
            first[tail_start].contains(&tail).then_some((start, moves))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::collections::HashMap;

    /// Every sequence of moves the filter lets through from a board that
    /// reaches a board reached by none shorter (in `max` moves or fewer):
    /// checked against a breadth-first search of the boards themselves.
    #[test]
    fn the_filter_keeps_a_shortest_path_to_every_board() {
        for (rows, cols, max) in [(2, 3, 21), (3, 3, 14), (2, 4, 16)] {
            let shape = Shape::new(rows, cols).unwrap();
            let filter = DuplicateFilter::new(shape, 10);
            for start in 0..shape.cells() {
                let mut tiles: Vec<u8> = (1..shape.cells() as u8).collect();
                tiles.insert(start, 0);
                let board = Board::from_tiles(shape, &tiles).unwrap();
                // Every board within `max` moves, by a search of boards.
                let mut distance = HashMap::from([(board, 0usize)]);
                let mut frontier = vec![board];
                for d in 1..=max {
                    let mut next = Vec::new();
                    for b in &frontier {
                        for mv in Move::ALL {
                            if let Some(after) = b.apply(mv)
                                && !distance.contains_key(&after)
                            {
                                distance.insert(after, d);
                                next.push(after);
                            }
                        }
                    }
                    frontier = next;
                }
                // The sequences the filter lets through, depth first.
                let mut reached: HashMap<Board, usize> = HashMap::new();
                let mut stack = vec![(board, filter.start(start), 0usize)];
                while let Some((b, state, d)) = stack.pop() {
                    let e = reached.entry(b).or_insert(d);
                    *e = (*e).min(d);
                    if d == max {
                        continue;
                    }
                    for mv in Move::ALL {
                        let to = filter.step(state, mv);
                        if to != REFUSED {
                            let after =
                                b.apply(mv).expect("the filter refuses moves off the board");
                            stack.push((after, to, d + 1));
                        }
                    }
                }
                assert_eq!(reached.len(), distance.len(), "{shape} from {start}");
                for (b, d) in &distance {
                    assert_eq!(reached.get(b), Some(d), "{shape} from {start}: {b}");
                }
            }
        }
    }

    /// How fast the sequences the filter lets through grow with their
    /// length, from every blank cell: the square root of the ratio of the
    /// counts of lengths 60 and 58 (the board's cells are black and white
    /// like a chessboard's, and on a board with more of one colour the
    /// ratio of two neighbouring lengths swings about the limit).
    fn growth(filter: &DuplicateFilter) -> f64 {
        let n = filter.shape.cells();
        let mut count = vec![0f64; filter.states()];
        count[..n].fill(1.0);
        let mut totals = Vec::new();
        for _ in 0..60 {
            let mut next = vec![0f64; filter.states()];
            for (state, &c) in count.iter().enumerate() {
                for to in filter.next[state] {
                    if to != REFUSED {
                        next[to as usize] += c;
                    }
                }
            }
            count = next;
            totals.push(count.iter().sum::<f64>());
        }
        (totals[59] / totals[57]).sqrt()
    }

    /// The branching factors the documentation gives: refusing only the
    /// undo of the last move (the published asymptotic branching factors,
    /// 2.1304 and 2.3676: Edelkamp and Korf, 1998), and every redundant
    /// sequence of up to 12; and the number of states.
    #[test]
    fn the_filter_lowers_the_branching_factor() {
        for (rows, cols, parent, twelve, states) in [
            (4, 4, 2.1304, 2.0079, 17_042),
            (5, 5, 2.3676, 2.2714, 61_295),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let undo = growth(&DuplicateFilter::new(shape, 2));
            let filter = DuplicateFilter::new(shape, MAX_LENGTH);
            let full = growth(&filter);
            eprintln!("{shape}: {undo:.4} {full:.4} {} states", filter.states());
            assert!((undo - parent).abs() < 1e-4, "{shape}: {undo}");
            assert!((full - twelve).abs() < 1e-4, "{shape}: {full}");
            // The JavaScript package's filter has as many (js/test/unit.test.js).
            assert_eq!(filter.states(), states, "{shape}");
        }
    }

    /// Undoing the last move is refused, and so is the walk three times
    /// round a 2×2 square; a walk that visits no cell twice is not.
    #[test]
    fn undos_and_walks_round_a_square_are_refused() {
        let shape = Shape::new(4, 4).unwrap();
        let filter = DuplicateFilter::new(shape, 12);
        let run = |start: usize, moves: &str| -> bool {
            let mut state = filter.start(start);
            for ch in moves.chars() {
                let mv = Move::from_letter(ch).unwrap();
                state = filter.step(state, mv);
                if state == REFUSED {
                    return false;
                }
            }
            true
        };
        assert!(!run(5, "ud"));
        assert!(!run(5, "lr"));
        // Once and a half round a square, and the way that precedes it.
        assert!(!run(5, "rdlurd"));
        assert!(run(5, "druldr"));
        assert!(!run(0, "rdlu".repeat(3).as_str()));
        assert!(run(0, "rdlur"));
        // A path that visits no cell twice has no equivalent.
        assert!(run(0, "rrrdddlllu"));
        assert!(filter.states() > 1000);
    }
}
