//! The files of a data folder: found by name, mapped, checked by what they
//! hold; tables built and saved when missing and small.

use crate::symmetry::BuiltFor;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{DatabaseError, Event, Inner, Source, own_table};
use crate::board::{Board, Metric};
use crate::format::{FileError, Kind};
use crate::output;
use crate::pdb::{EntryKind, PatternDb};
use crate::store::{self, Bytes};
use crate::symmetry::GoalClass;
use crate::table::{Table, generate_in};

/// What a file that could not be opened is: unreadable, or unusable.
pub(super) fn file_error(path: &Path, e: FileError) -> DatabaseError {
    match e {
        FileError::Io { path, source } => DatabaseError::Read { path, source },
        source => DatabaseError::File {
            path: path.to_path_buf(),
            source,
        },
    }
}

impl Inner {
    pub(super) fn report(&self, event: &Event) {
        if let Some(f) = &self.on_event {
            f(event);
        }
    }

    /// Maps and checks a table file: O(1) checks always, the body on the
    /// first open since it changed.
    pub(super) fn open_table(&self, path: &Path) -> Result<Table<Bytes>, DatabaseError> {
        if path.is_dir() && path.join(crate::table::MANIFEST_NAME).exists() {
            return self.open_sharded(path);
        }
        let file = |e| file_error(path, e);
        let (map, identity) = store::map_file_identified(path).map_err(file)?;
        let table = Table::new(Bytes::Mapped(map)).map_err(file)?;
        let bytes = table.as_bytes().len() as u64;
        self.check_body(path, &identity, bytes, || table.verify())?;
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::FullTable,
        });
        Ok(table)
    }

    /// Opens a directory of shards: O(1) checks of each against the
    /// manifest always, and their bodies' checksums (each time: a
    /// directory has no stamp) unless checks are off.
    pub(super) fn open_sharded(&self, path: &Path) -> Result<Table<Bytes>, DatabaseError> {
        let table = Table::open_sharded(path).map_err(|source| DatabaseError::Shards {
            path: path.to_path_buf(),
            source,
        })?;
        if self.verify
            && let Some(Err(source)) = table.verify_shards()
        {
            // The error names the shard that is damaged.
            return Err(DatabaseError::Shards {
                path: path.to_path_buf(),
                source,
            });
        }
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::FullTable,
        });
        Ok(table.map_data(Bytes::Owned))
    }

    /// Maps and checks a pattern databases file, as [`Inner::open_table`].
    pub(super) fn open_patterns(&self, path: &Path) -> Result<PatternDb<Bytes>, DatabaseError> {
        let file = |e| file_error(path, e);
        let (map, identity) = store::map_file_identified(path).map_err(file)?;
        let db = PatternDb::new(Bytes::Mapped(map)).map_err(file)?;
        let bytes = db.as_bytes().len() as u64;
        self.check_body(path, &identity, bytes, || db.verify_checksum())?;
        let db = match self.huge_pages {
            true => {
                let copy = store::copy_to_huge_pages(db.as_bytes()).map_err(|source| {
                    DatabaseError::HugePages {
                        path: path.to_path_buf(),
                        bytes,
                        source,
                    }
                })?;
                PatternDb::new(Bytes::Mapped(copy)).map_err(file)?
            }
            false => db,
        };
        self.report(&Event::Opened {
            path: path.to_path_buf(),
            kind: Kind::PatternDatabases,
        });
        Ok(db)
    }

    /// Runs `verify` on the file of `identity` at `path` unless checks are
    /// off or its stamp says it was checked since it last changed; stamps
    /// it after a check that passes.
    pub(super) fn check_body(
        &self,
        path: &Path,
        identity: &store::FileIdentity,
        bytes: u64,
        verify: impl FnOnce() -> Result<(), FileError>,
    ) -> Result<(), DatabaseError> {
        if !self.verify || store::is_stamped(path, identity) {
            return Ok(());
        }
        let start = Instant::now();
        verify().map_err(|e| file_error(path, e))?;
        let elapsed = start.elapsed();
        let stamped = store::stamp(path, identity).is_ok();
        self.report(&Event::Verified {
            path: path.to_path_buf(),
            bytes,
            elapsed,
            stamped,
        });
        Ok(())
    }

    /// The class's table from the data folder, checked to be the class's;
    /// built (and saved) if missing and small.
    pub(super) fn find_or_build_table(
        &self,
        class: &GoalClass,
        metric: Metric,
    ) -> Result<(Table<Bytes>, Source), DatabaseError> {
        let goal = class.goal();
        let shape = goal.shape();
        let path = self
            .dir
            .as_ref()
            .map(|d| d.join(store::table_file_name(class.canonical(), metric)));
        if let Some(path) = &path
            && path.exists()
        {
            let table = self.open_table(path)?;
            if table.indexed_goal() != class.canonical() {
                // The name is the class's, the table another's: renamed.
                return Err(DatabaseError::Misnamed {
                    path: path.clone(),
                    holds: *table.goal(),
                });
            }
            if table.metric() != metric {
                return Err(DatabaseError::OtherMetric {
                    origin: Source::File(path.clone()),
                    kind: crate::format::Kind::FullTable,
                    asked: metric,
                    holds: table.metric(),
                });
            }
            return Ok((table, Source::File(path.clone())));
        }
        if shape.cells() > self.build_cells {
            // A file under the asked goal's own name that holds the
            // class's table was renamed for this shape: say so.
            if let Some(dir) = &self.dir {
                let named = dir.join(store::table_file_name(goal, metric));
                if Some(&named) != path.as_ref()
                    && named.exists()
                    && let Ok(table) = self.open_table(&named)
                    && table.indexed_goal() == class.canonical()
                {
                    return Err(DatabaseError::Misnamed {
                        path: named,
                        holds: *table.goal(),
                    });
                }
            }
            return Err(DatabaseError::MissingTable {
                goal: *goal,
                path,
                metric,
            });
        }
        // The class's file serves every goal of the class: it is built for
        // the class's own goal, whichever goal asked first.
        let start = Instant::now();
        let canonical = class.canonical();
        let table = generate_in(canonical, metric, |_| {})?;
        self.report(&Event::Built {
            goal: *canonical,
            elapsed: start.elapsed(),
        });
        let saved = path.and_then(|path| self.save(&path, table.as_bytes()).then_some(path));
        Ok((own_table(table), Source::Built { saved }))
    }

    /// Saves a built table, creating the data folder if needed; reports
    /// what happened and returns whether it was saved.
    pub(super) fn save(&self, path: &Path, bytes: &[u8]) -> bool {
        let dir = path.parent().expect("a file in the data folder");
        match output::create_data_dir(dir) {
            Ok(true) => self.report(&Event::CreatedDataDir {
                path: dir.to_path_buf(),
            }),
            Ok(false) => {}
            Err(e) => {
                self.report(&Event::NotSaved {
                    path: path.to_path_buf(),
                    error: e.to_string(),
                });
                return false;
            }
        }
        match output::write_atomic(path, bytes, false) {
            // Another process saved the same table meanwhile: as good.
            Ok(()) => {
                self.report(&Event::Saved {
                    path: path.to_path_buf(),
                });
                true
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => true,
            Err(e) => {
                self.report(&Event::NotSaved {
                    path: path.to_path_buf(),
                    error: e.to_string(),
                });
                false
            }
        }
    }

    /// Every pattern databases file of the data folder for the class of
    /// `indexed`, largest first (by name among equals), but for a set
    /// whose blank-aware twin (its name with `-blank`) is there too.
    pub(super) fn find_all_patterns(&self, indexed: &Board) -> Result<Vec<PathBuf>, DatabaseError> {
        let Some(dir) = &self.dir else {
            return Ok(Vec::new());
        };
        let prefix = store::pattern_file_prefix(indexed);
        let suffix = format!(".{}", store::EXTENSION);
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(DatabaseError::DataDir {
                    path: dir.clone(),
                    source,
                });
            }
        };
        let mut found: Vec<(u64, PathBuf)> = Vec::new();
        for entry in entries.flatten() {
            let file = entry.file_name();
            let Some(file) = file.to_str() else { continue };
            if file.starts_with(&prefix) && file.ends_with(&suffix) {
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                found.push((size, entry.path()));
            }
        }
        // A set beside its blank-aware twin adds nothing: the twin's
        // entries are never below its own.
        let names: std::collections::HashSet<String> = found
            .iter()
            .filter_map(|(_, path)| Some(path.file_name()?.to_str()?.to_string()))
            .collect();
        found.retain(|(_, path)| {
            let Some(stem) = path
                .file_name()
                .and_then(|f| f.to_str())
                .and_then(|f| f.strip_suffix(&suffix))
            else {
                return true;
            };
            let twin = format!("{stem}{}{suffix}", EntryKind::BlankAware.suffix());
            !names.contains(&twin)
        });
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        Ok(found.into_iter().map(|(_, path)| path).collect())
    }
}
