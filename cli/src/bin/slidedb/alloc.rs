//! A global allocator that counts, while asked to: the bytes allocated
//! less those freed, and the most of that at once, so `compare` reports
//! each algorithm's measured peak heap. Off, it costs one read of a flag
//! per call (batch solving allocates from both cores at once, and shared
//! counters would make them wait on each other). A thread that only
//! watches (`compare`'s progress display) is left out of the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

static COUNTING: AtomicBool = AtomicBool::new(false);
static IN_USE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Whether this thread's allocations are left out of the count (a
    /// constant-initialised cell without a destructor: reading it never
    /// allocates).
    static EXEMPT: Cell<bool> = const { Cell::new(false) };
}

/// Leaves the calling thread's allocations out of every count from now on.
pub fn exempt_this_thread() {
    EXEMPT.with(|e| e.set(true));
}

/// Whether an allocation now is counted.
fn counted() -> bool {
    COUNTING.load(Relaxed) && !EXEMPT.with(Cell::get)
}

/// The system allocator, counting while [`peak_during`] runs.
pub struct Counting;

fn grew(by: usize) {
    if counted() {
        let now = IN_USE.fetch_add(by as isize, Relaxed) + by as isize;
        PEAK.fetch_max(now, Relaxed);
    }
}

fn shrank(by: usize) {
    if counted() {
        IN_USE.fetch_sub(by as isize, Relaxed);
    }
}

// SAFETY: every call is passed straight to the system allocator; the
// counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

/// Runs `f` and returns its result with the most heap bytes it had in use
/// at once beyond what was in use before (frees of older memory count as
/// negative; threads other than the caller's count too, so run nothing
/// else meanwhile but threads that called [`exempt_this_thread`]).
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    IN_USE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    COUNTING.store(true, Relaxed);
    let out = f();
    COUNTING.store(false, Relaxed);
    (out, PEAK.load(Relaxed).max(0) as usize)
}
