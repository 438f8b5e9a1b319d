//! What the library's tests (`tests/integration`) and the programs'
//! (`cli/tests`) both need, included by each harness with `#[path]`: the
//! published data in `tests/data/` and a plain reference BFS.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use slidedb::{Board, Move, Shape};

/// The repository's `tests/data/`, found from the package being tested
/// (the root package, or `cli/` inside it).
pub fn data_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/data"))
        .find(|dir| dir.is_dir())
        .expect("tests/data in the package or a folder above it")
}

/// Distances from `goal` to every reachable board by a textbook BFS over a
/// hash map: slow and obviously right, the reference the table must match.
pub fn reference_bfs(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(*goal, 0);
    queue.push_back(*goal);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in Move::ALL {
            if let Some(n) = b.apply(m) {
                dist.entry(n).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
    }
    dist
}

/// A published distribution: the goal, the layer counts, the states at the
/// greatest distance.
pub struct Distribution {
    pub goal: Board,
    pub layers: Vec<u64>,
    pub antipodes: Vec<Board>,
}

/// Reads `tests/data/distributions/NAME`.
pub fn distribution(name: &str) -> Distribution {
    let file = data_dir().join("distributions").join(name);
    let path = file.display();
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut shape = None;
    let mut goal = None;
    let mut layers = Vec::new();
    let mut antipodes = Vec::new();
    let mut in_antipodes = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            if let Some((size, g)) = rest.split_once(" goal: ") {
                let s: Shape = size.parse().unwrap();
                shape = Some(s);
                goal = Some(Board::parse(g, Some(s)).unwrap());
            } else if rest.starts_with("max distance") {
                in_antipodes = true;
            } else if in_antipodes && rest.starts_with("  ") {
                antipodes.push(Board::parse(rest, shape).unwrap());
            } else {
                in_antipodes = false;
            }
        } else if !line.trim().is_empty() {
            let mut it = line.split_whitespace();
            let d: usize = it.next().unwrap().parse().unwrap();
            let c: u64 = it.next().unwrap().parse().unwrap();
            assert_eq!(d, layers.len(), "{path}: distances in order");
            layers.push(c);
        }
    }
    Distribution {
        goal: goal.expect("a goal line"),
        layers,
        antipodes,
    }
}
