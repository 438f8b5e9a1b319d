//! What the database holds open, one slot a goal class: opening, checking
//! or building one class's file holds that class's slot only, so lookups
//! of every other class go on meanwhile.
//!
//! The map from class to slot is locked only to find or add a slot; the
//! slot's own lock is held across the slow work. Classes are a bounded set
//! (a goal's class is its blank's cell up to the board's symmetries), so
//! the map stays small whatever goals are asked.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use super::Source;
use crate::board::{Board, Metric};

/// How long a look that found nothing stands while the data folder seems
/// unchanged: a file written into it since is found within this time even
/// where the folder's modification time is too coarse to show it.
pub(super) const LOOK_AGAIN_AFTER: Duration = Duration::from_secs(2);

/// One slot a goal class (by its canonical goal) and metric, each with its
/// own lock.
pub(super) struct Slots<V> {
    map: Mutex<HashMap<SlotKey, Arc<Mutex<V>>>>,
}

/// A slot's key: the class's canonical goal and the metric.
type SlotKey = (Board, Metric);

impl<V> Default for Slots<V> {
    fn default() -> Slots<V> {
        Slots {
            map: Mutex::default(),
        }
    }
}

impl<V: Default> Slots<V> {
    /// The slot of the class whose canonical goal is `key`, in `metric`,
    /// added empty if it has none yet. Holds the map's lock only while it
    /// looks.
    pub(super) fn slot(&self, key: &Board, metric: Metric) -> Arc<Mutex<V>> {
        lock(&self.map).entry((*key, metric)).or_default().clone()
    }
}

/// Locks `mutex`, going on past a thread that panicked holding it: every
/// value kept in a slot is whole between statements.
pub(super) fn lock<V>(mutex: &Mutex<V>) -> MutexGuard<'_, V> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a look in the data folder found for a class.
#[derive(Default)]
pub(super) enum Looked<T> {
    /// Nothing looked for yet.
    #[default]
    Not,
    /// Open, and from where.
    Found(Arc<T>, Source),
    /// Nothing there, when it looked, with the folder as it was then.
    Missing(FolderMark),
}

/// When a folder was looked in, and its modification time then: a look
/// that found nothing is made again once the folder changed or
/// [`LOOK_AGAIN_AFTER`] passed, so files built after a server started are
/// used without a restart, and a server asked a thousand times a second
/// reads the folder at most once a second or so.
#[derive(Clone, Copy, Debug)]
pub(super) struct FolderMark {
    at: Instant,
    modified: Option<SystemTime>,
}

impl FolderMark {
    /// The folder `dir` (if any) as it is now.
    pub(super) fn now(dir: Option<&Path>) -> FolderMark {
        FolderMark {
            at: Instant::now(),
            modified: modified(dir),
        }
    }

    /// Whether a look made at this mark may be out of date: the folder
    /// changed since, or the look is older than [`LOOK_AGAIN_AFTER`].
    pub(super) fn is_stale(&self, dir: Option<&Path>) -> bool {
        self.at.elapsed() >= LOOK_AGAIN_AFTER || modified(dir) != self.modified
    }
}

fn modified(dir: Option<&Path>) -> Option<SystemTime> {
    dir.and_then(|d| std::fs::metadata(d).ok())
        .and_then(|m| m.modified().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn one_class_locked_leaves_the_others_free() {
        let slots: Slots<u32> = Slots::default();
        let a = Board::solved(Shape::EIGHT);
        let b = Board::solved(Shape::new(2, 3).unwrap());
        let held = slots.slot(&a, Metric::Single);
        let _busy = lock(&held);
        // Another class's slot is found and locked while `a`'s is held.
        *lock(&slots.slot(&b, Metric::Single)) = 7;
        assert_eq!(*lock(&slots.slot(&b, Metric::Single)), 7);
        assert_eq!(*lock(&slots.slot(&b, Metric::Multi)), 0);
        // And `a`'s slot is the same one, still held.
        assert!(slots.slot(&a, Metric::Single).try_lock().is_err());
    }

    #[test]
    fn a_look_is_stale_once_the_folder_changes() {
        let dir = tempfile::tempdir().unwrap();
        let mark = FolderMark::now(Some(dir.path()));
        assert!(!mark.is_stale(Some(dir.path())));
        // Modification times may be coarse: set one a minute on.
        let later = SystemTime::now() + Duration::from_secs(60);
        std::fs::File::open(dir.path())
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(mark.is_stale(Some(dir.path())));
        // Without a folder, only time makes a look stale.
        assert!(!FolderMark::now(None).is_stale(None));
    }
}
