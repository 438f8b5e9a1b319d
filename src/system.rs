//! What the machine says, read in one place: the memory available to a
//! new program, the process's address-space limit, and the free disk in a
//! folder. Each is `None` where the system does not say. And what the
//! machine is told: a prefetch of a line about to be read.

use std::path::Path;

/// What the system says is available to a new program (Linux's
/// `MemAvailable`).
pub(crate) fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The process's address-space limit (`ulimit -v`), if it has one.
pub(crate) fn address_space_limit() -> Option<u64> {
    // "Max address space  <soft> <hard> bytes"
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Free bytes for an unprivileged writer in `folder`; `None` where the
/// system does not say.
pub(crate) fn free_disk(folder: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(folder.as_os_str().as_bytes()).ok()?;
        let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
        // SAFETY: `path` is a NUL-terminated string and `stat` is writable
        // memory of the right type; statvfs fills it when it returns 0.
        let stat = unsafe {
            if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
                return None;
            }
            stat.assume_init()
        };
        (stat.f_bavail as u64).checked_mul(stat.f_frsize as u64)
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        None
    }
}

/// Asks the cache for the line of `at`, which is about to be read or
/// written.
#[inline(always)]
pub(crate) fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault; the pointer is
    // valid anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (at as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn linux_says_the_memory_available() {
        assert!(available_memory().unwrap() > 0);
    }

    #[test]
    fn the_address_space_limit_reads_without_failing() {
        // Unlimited in a usual shell; a number under `ulimit -v`.
        let _ = address_space_limit();
    }

    #[test]
    #[cfg(unix)]
    fn unix_says_the_free_disk() {
        assert!(free_disk(Path::new(".")).is_some());
    }
}
