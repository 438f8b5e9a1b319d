//! Progress on stderr, drawn one way for both programs: on a terminal a
//! bar (or a spinner) that lines are printed above; elsewhere only the
//! lines, for logs; nothing at all when quiet. Each command decides what
//! to say and when; this is how it is shown.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar or spinner on a terminal, or plain lines elsewhere.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

/// The bar of every progress display: 40 columns, then `{percent}%` and
/// what the template adds.
pub const BAR: &str = "{bar:40.cyan/blue} {percent:>3}%";

impl Progress {
    /// A bar over `len` steps drawn by indicatif's `template` on a
    /// terminal (see [`BAR`]); plain lines elsewhere; nothing if `quiet`.
    pub fn bar(quiet: bool, len: u64, template: &str) -> Progress {
        Progress::drawn(quiet, || {
            let bar = ProgressBar::new(len);
            bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
            bar
        })
    }

    /// A spinner with a message on a terminal; plain lines elsewhere;
    /// nothing if `quiet`.
    pub fn spinner(quiet: bool) -> Progress {
        Progress::drawn(quiet, || {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner:.cyan} {msg}").expect("a valid template"),
            );
            bar
        })
    }

    fn drawn(quiet: bool, make: impl FnOnce() -> ProgressBar) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(make);
        Progress { bar, quiet }
    }

    /// Whether a bar or spinner is drawn (a terminal, not quiet): if not,
    /// a command says its progress in lines, as often as suits a log.
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// Whether nothing is to be shown.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Prints `line` above the bar, or as a line of its own.
    pub fn say(&self, line: impl AsRef<str>) {
        match &self.bar {
            Some(bar) => bar.println(line.as_ref()),
            None if !self.quiet => say!("{}", line.as_ref()),
            None => {}
        }
    }

    /// Moves the bar to `position` with `message` (nothing without one).
    pub fn set(&self, position: u64, message: impl Into<String>) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
            bar.set_message(message.into());
        }
    }

    /// Prints `line` above the bar, and moves the bar to `position` with
    /// `message`: a step done.
    pub fn report(&self, line: impl AsRef<str>, position: u64, message: impl Into<String>) {
        self.say(line);
        self.set(position, message);
    }

    /// Sets the spinner's message and draws it (nothing without one).
    pub fn tick(&self, message: impl Into<String>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.into());
            bar.tick();
        }
    }

    /// Moves the bar to `position` without counting the jump in its rate
    /// (a resumed build's states were reached by an earlier run).
    pub fn restart_at(&self, position: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
            bar.reset_eta();
        }
    }

    /// Removes the bar or spinner; lines said stay.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
