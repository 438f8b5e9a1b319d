//! IDA* over pattern databases allocates nothing per node: the number of
//! allocations while solving a board does not grow with the nodes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use slidedb::pdb::{self, Partition};
use slidedb::{Board, Shape};

/// Counts allocations (this test binary's only allocator).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        // SAFETY: the caller's contract is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn idastar_allocates_nothing_per_node() {
    let shape = Shape::new(4, 4).unwrap();
    let korf = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let partition = Partition::standard(&korf, "5-5-5").unwrap();
    // Plain entries, and blank-aware ones (whose values the search steps
    // from the parent's, and whose root it walks down to the goal). One
    // test, so that no other allocates beside the counting.
    for db in [
        pdb::build(&korf, &partition, |_| {}).unwrap(),
        pdb::build_blank_aware(&korf, &partition, |_| {}).unwrap(),
    ] {
        // Korf's instances 9 (46 moves) and 6 (52 moves): a few set-up
        // allocations each (the views, the path), the same for both,
        // though one search generates several times the nodes of the
        // other. The filter of redundant move sequences is built once a
        // process and shape, by the first search: before the counting.
        db.solve(&"4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap())
            .unwrap();
        let mut counts = Vec::new();
        for (board, length) in [
            ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46),
            ("14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13", 52),
        ] {
            let board = Board::parse(board, Some(shape)).unwrap();
            let before = ALLOCATIONS.load(Relaxed);
            let found = db.solve(&board).unwrap();
            let allocations = ALLOCATIONS.load(Relaxed) - before;
            assert_eq!(found.moves.unwrap().len(), length);
            let generated = found.stats.unwrap().generated;
            assert!(generated > 10_000, "{:?}", found.stats);
            assert!(
                allocations <= 8,
                "{allocations} allocations for {generated} nodes"
            );
            counts.push((allocations, generated));
        }
        assert_eq!(counts[0].0, counts[1].0, "{counts:?}");
        assert!(counts[1].1 > 2 * counts[0].1, "{counts:?}");
    }
}
