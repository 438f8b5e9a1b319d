//! Completion scripts and manual pages, generated from a program's clap
//! definitions (the same ones `--help` shows).

use std::io::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};

use crate::console::output;

/// Writes to stdout the completion script of `shell` for `command`.
pub fn completions(mut command: clap::Command, shell: clap_complete::Shell) -> Result<()> {
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    let mut out = output();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

/// Writes the manual page of `command` to stdout; or, into `dir` (made if
/// missing, but not its parent), it (`NAME.1`) and a page per subcommand
/// (`NAME-SUB.1`). A file of a page's name is replaced when it is that
/// command's manual page (an older one, say); any other file only with
/// `force`, and else nothing is written and the error names the first.
pub fn man(command: clap::Command, dir: Option<&Path>, force: bool) -> Result<()> {
    // `help` is clap's own subcommand: `--help` of each command is in its
    // page, and no `slidedb-help(1)` is written, so none is listed.
    let command = command.disable_help_subcommand(true);
    let page = |command: clap::Command| -> Result<Vec<u8>> {
        let mut page = Vec::new();
        clap_mangen::Man::new(command).render(&mut page)?;
        Ok(page)
    };
    let Some(dir) = dir else {
        let mut out = output();
        out.write_all(&page(command)?)?;
        out.flush()?;
        return Ok(());
    };
    let name = command.get_name().to_string();
    let mut pages = vec![(format!("{name}.1"), page(command.clone())?)];
    for sub in command.get_subcommands() {
        // A page's name is a command's: `slidedb-solve`.
        let full: &'static str = Box::leak(format!("{name}-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{full}.1"), page(sub.clone().name(full))?));
    }
    if !force {
        for (file, _) in &pages {
            let path = dir.join(file);
            if path.symlink_metadata().is_ok() && !is_page_of(&path, file) {
                anyhow::bail!(
                    "{} exists and is not the manual page of {}: pass --force to replace it, or name another folder",
                    path.display(),
                    file.trim_end_matches(".1")
                );
            }
        }
    }
    slidedb::output::create_out_dir(dir)
        .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    for (file, bytes) in pages {
        let path = dir.join(&file);
        slidedb::write_atomic(&path, &bytes, true)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Whether `path` holds the manual page `file` (`NAME.1`) as this module
/// writes it: a regular file whose title line (`.TH NAME 1`) names it.
fn is_page_of(path: &Path, file: &str) -> bool {
    let Some(name) = file.strip_suffix(".1") else {
        return false;
    };
    let title = format!(".TH {name} 1");
    path.symlink_metadata().is_ok_and(|m| m.is_file())
        && std::fs::read(path).is_ok_and(|bytes| {
            bytes.split(|&b| b == b'\n').take(16).any(|line| {
                line == title.as_bytes() || line.starts_with(format!("{title} ").as_bytes())
            })
        })
}
