"""The damaged files of tests/data/damaged/ (made by the Rust test
tests/integration/damaged.rs), each refused with the exact message its
manifest gives: the library's words, the same in every front end. A table
file is opened with Table.open; a pattern databases file is put in a data
folder under its name there and found by a Database answering a 3x5 board.
"""

import json
import shutil
from pathlib import Path

import pytest

import slidedb

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "data" / "damaged"
MANIFEST = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))
ROWS = MANIFEST["files"]


def test_the_manifest_covers_every_fault():
    faults = {row["fault"] for row in ROWS}
    assert len(faults) == 13, sorted(faults)


@pytest.mark.parametrize("row", ROWS, ids=[row["file"] for row in ROWS])
def test_each_damaged_file_is_refused_in_the_librarys_words(row, tmp_path):
    if row["found_by"] == "recount":
        pytest.skip("a data folder checks pattern databases' checksum on open; their recount is slidedb verify's")
    if row["opens"] == "table":
        path = tmp_path / row["file"]
        shutil.copyfile(FOLDER / row["file"], path)
        with pytest.raises(slidedb.TableError) as refused:
            slidedb.Table.open(path)
    else:
        folder = tmp_path / "data"
        folder.mkdir()
        path = folder / MANIFEST["patterns_name"]
        shutil.copyfile(FOLDER / row["file"], path)
        with pytest.raises(slidedb.TableError) as refused:
            slidedb.Database(folder).solve(MANIFEST["patterns_board"])
    # The error names the file, then says what is wrong as the library does.
    assert str(refused.value) == f"{path}: {row['message']}"


def test_the_sound_patterns_answer_from_their_folder(tmp_path):
    # The folder route does reach the pattern databases: the file whose body
    # byte 300 was flipped (tests/integration/damaged.rs), flipped back, is
    # the sound file, and answers.
    data = bytearray((FOLDER / "patterns-body-checksum.slidedb").read_bytes())
    body = int.from_bytes(data[40:48], "little")
    data[body + 300] ^= 0x04
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / MANIFEST["patterns_name"]).write_bytes(bytes(data))
    assert slidedb.Database(folder).solve(MANIFEST["patterns_board"]).moves == "r"
