"""Shared by the tests: the command line's programs (`slidedb`,
`slidedb-gen`) to compare the package's answers with, or to build files
with, found once per session; a test that asks for one is skipped, saying
how to build it, where there is none."""

import os
import shutil
from pathlib import Path

import pytest


def program(name, variable):
    """One of the command line's programs: ${variable}, else the repository's
    build (`cargo build --release`, or the `ci` profile CI builds first),
    else one on the PATH; None if there is none."""
    root = Path(__file__).resolve().parents[2]
    target = Path(os.environ.get("CARGO_TARGET_DIR", "target"))
    if not target.is_absolute():
        target = root / target
    candidates = [os.environ.get(variable)]
    candidates += [target / profile / name for profile in ("release", "ci", "debug")]
    candidates.append(shutil.which(name))
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def program_fixture(name, variable, purpose):
    """A session fixture giving the path of the program `name` (see
    `program`), skipping the test where there is none."""

    @pytest.fixture(scope="session")
    def fixture():
        found = program(name, variable)
        if found is None:
            pytest.skip(f"no {name} program {purpose}: cargo build --release, or set {variable}")
        return found

    fixture.__doc__ = f"The command line's `{name}`, {purpose}."
    return fixture


slidedb_cli = program_fixture("slidedb", "SLIDEDB", "to compare with")
slidedb_gen = program_fixture("slidedb-gen", "SLIDEDB_GEN", "to build tables and databases with")
