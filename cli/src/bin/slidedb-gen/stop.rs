//! A stop by a signal (SIGINT from Ctrl-C, SIGTERM, SIGHUP): the program
//! removes the files the run registered as useless to any later run (a
//! two-bit build's work files and `.partial` files; never a checkpoint),
//! says so, and exits at once with 128 + the signal's number, as a shell
//! reports a process killed by that signal.
//!
//! The signals are blocked in every thread (blocked before any other thread
//! starts, which inherits the mask) and taken by one thread of their own
//! with `sigwait`, so the removal runs as ordinary code, not in a signal
//! handler.

use std::sync::Mutex;

/// What a stop removes: set by the build under way.
type Cleanup = Box<dyn Fn() -> Vec<std::path::PathBuf> + Send>;

static ON_STOP: Mutex<Option<Cleanup>> = Mutex::new(None);

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread it
/// starts later, and starts the thread that takes them. Call it before any
/// other thread starts.
pub fn install() {
    #[cfg(unix)]
    {
        // SAFETY: `set` is a plain value filled by sigemptyset/sigaddset;
        // pthread_sigmask only reads it.
        let set = unsafe {
            let mut set = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(set.as_mut_ptr());
            let mut set = set.assume_init();
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::sigaddset(&mut set, signal);
            }
            if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
                return;
            }
            set
        };
        let taker = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let mut signal = 0;
                // SAFETY: `set` is an initialised signal set and `signal`
                // a writable int.
                while unsafe { libc::sigwait(&set, &mut signal) } != 0 {}
                stop(signal)
            });
        if taker.is_err() {
            // No thread to take them: let the signals act as before.
            // SAFETY: as above.
            unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
        }
    }
}

/// Sets what a stop removes until the returned guard is dropped.
pub fn on_stop(cleanup: impl Fn() -> Vec<std::path::PathBuf> + Send + 'static) -> impl Drop {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            if let Ok(mut slot) = ON_STOP.lock() {
                *slot = None;
            }
        }
    }
    if let Ok(mut slot) = ON_STOP.lock() {
        *slot = Some(Box::new(cleanup));
    }
    Clear
}

/// Removes what the run registered, says what it did, and exits.
#[cfg(unix)]
fn stop(signal: i32) -> ! {
    let name = match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    // The lock is held to the exit, so the build cannot clear or replace
    // the cleanup meanwhile.
    let slot = ON_STOP.lock();
    let removed = match &slot {
        Ok(slot) => slot.as_ref().map(|cleanup| cleanup()).unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    if removed.is_empty() {
        say!("slidedb-gen: stopped by {name}");
    } else {
        let names: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
        say!(
            "slidedb-gen: stopped by {name}; removed {}, which no later run can use",
            names.join(", ")
        );
    }
    std::process::exit(128 + signal)
}
