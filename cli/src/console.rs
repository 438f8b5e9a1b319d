//! What both binaries share about the console: stderr lines that never
//! panic, stdout whose write errors are named, and clap's help and version
//! written with their errors checked (clap itself ignores a failed write).

use std::io;
use std::process::ExitCode;

/// Writes a diagnostic line to stderr. A closed stderr is no reason to
/// panic, so write errors are ignored.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Standard output, buffered, for every command's results: a write error
/// says it was the output that failed ("cannot write the output: No space
/// left on device"), and keeps its kind, so that a closed pipe is still
/// known as one. Flush it before returning: a buffer dropped unflushed
/// loses its error.
pub fn output() -> impl io::Write {
    io::BufWriter::with_capacity(1 << 16, Output(io::stdout().lock()))
}

/// Standard output, its errors named.
struct Output(io::StdoutLock<'static>);

impl Output {
    fn named(e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write the output: {e}"))
    }
}

impl io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(Output::named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(Output::named)
    }
}

/// Whether `e` is, or was caused by, a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The command line, parsed; or the exit code after `--help`, `--version`
/// (written with their errors checked: quiet on a closed pipe, one message
/// and 2 on any other write error) or a usage error (clap's message, 2).
pub fn parse<T: clap::Parser>(program: &str) -> Result<T, ExitCode> {
    use clap::error::ErrorKind;
    use std::io::Write as _;
    match T::try_parse() {
        Ok(parsed) => Ok(parsed),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let mut out = output();
            let written = write!(out, "{}", e.render()).and_then(|()| out.flush());
            Err(match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    say!("{program}: error: {e}");
                    ExitCode::from(2)
                }
            })
        }
        Err(e) => {
            let _ = e.print();
            Err(ExitCode::from(2))
        }
    }
}
