"""The multi-tile metric (a move slides the blank any number of cells along
its row or column): a Database in either metric answers as the command
line's `--metric` does, in the same JSON, and a file of one metric asked in
the other is refused, naming both."""

import json
import os
import shutil
import subprocess

import pytest

import slidedb

SEED = "2 3 4 1 5 x 7 6 8"
# A few 3x3 boards (the seed case, the hardest single-tile board, one
# slide from solved, solved, and an unsolvable one) and 2x3 boards.
BOARDS_3X3 = [SEED, "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 8 7 0"]
BOARDS_2X3 = ["1 4 5 2 3 0", "2 4 1 5 0 3", "0 2 5 1 3 4", "5 2 3 0 1 4", "1 2 3 5 4 0"]


def cli_json(cli, data, *args):
    """The command line's JSON answer to `args` with the data folder `data`."""
    run = subprocess.run(
        [cli, *args, "--json"],
        env=dict(os.environ, SLIDEDB_DATA=str(data)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_the_metric_is_single_unless_named(tmp_path):
    db = slidedb.Database(tmp_path)
    assert db.metric == "single"
    multi = db.with_metric("multi")
    assert multi.metric == "multi"
    assert multi.data_dir == db.data_dir
    assert db.metric == "single"
    assert slidedb.Database(tmp_path, metric="mtm").metric == "multi"
    assert slidedb.Database.in_memory(metric="multi").metric == "multi"
    assert multi.with_metric("single").metric == "single"


def test_an_unknown_metric_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="sideways"):
        slidedb.Database(tmp_path, metric="sideways")
    with pytest.raises(ValueError, match="sideways"):
        slidedb.Database.in_memory().with_metric("sideways")


def test_a_multi_tile_solution_counts_slides():
    db = slidedb.Database.in_memory(metric="multi")
    found = db.solve("1 2 3 4 5 6 0 7 8")
    assert (found.moves, found.distance, found.metric, found.slides) == ("rr", 1, "multi", ["rr"])
    assert found.as_dict() == {
        "board": "1 2 3 4 5 6 0 7 8",
        "goal": "1 2 3 4 5 6 7 8 0",
        "solvable": True,
        "distance": 1,
        "moves": "rr",
        "metric": "multi",
        "slides": ["rr"],
    }
    single = slidedb.Database.in_memory().solve("1 2 3 4 5 6 0 7 8")
    assert (single.distance, single.metric, single.slides) == (2, "single", None)
    assert "metric" not in single.as_dict()
    assert found != single


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize("board, size", [(b, "3x3") for b in BOARDS_3X3] + [(b, "2x3") for b in BOARDS_2X3])
def test_solve_probe_count_are_the_command_lines(slidedb_cli, tmp_path, metric, board, size):
    db = slidedb.Database(tmp_path / "py", metric=metric)
    cli = (slidedb_cli, tmp_path / "cli")
    args = ["--metric", metric, "--size", size, board]
    assert db.solve(board, size=size).as_dict() == cli_json(*cli, "solve", *args)
    assert db.probe(board, size=size).as_dict() == cli_json(*cli, "probe", *args)
    counted = cli_json(*cli, "count", *args)
    assert db.count(board, size=size) == counted["count"]
    assert db.distance(board, size=size) == counted["distance"]


def test_a_probe_in_multi_lists_every_slide(tmp_path):
    probe = slidedb.Database(tmp_path, metric="multi").probe(SEED)
    assert probe.metric == "multi"
    assert [m.move for m in probe.moves] == ["u", "d", "l", "ll"]
    # Each slide's distance differs from the board's by at most one.
    assert all(abs(m.distance - probe.distance) <= 1 for m in probe.moves)


def test_a_table_of_the_other_metric_is_refused_naming_both(slidedb_cli, tmp_path):
    multi = slidedb.Database(tmp_path, metric="multi")
    multi.solve(SEED)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["3x3-1-2-3-4-5-6-7-8-0-multi.slidedb"]
    # The multi-tile table under the single-tile table's name.
    shutil.move(tmp_path / files[0], tmp_path / "3x3-1-2-3-4-5-6-7-8-0.slidedb")
    run = subprocess.run(
        [slidedb_cli, "solve", SEED],
        env=dict(os.environ, SLIDEDB_DATA=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    with pytest.raises(slidedb.TableError) as refused:
        slidedb.Database(tmp_path).solve(SEED)
    message = str(refused.value)
    assert "multi-tile" in message and "single-tile" in message, message
    assert message in run.stderr


def test_a_multi_tile_table_says_its_metric(tmp_path):
    db = slidedb.Database(tmp_path, metric="multi")
    assert db.table("2x3").metric == "multi"
    assert slidedb.Database(tmp_path).table("2x3").metric == "single"


def test_a_4x4_board_in_multi_is_searched_as_on_the_command_line(slidedb_cli, tmp_path):
    # IDA* under the 4x4 coloured pattern database, which each process
    # builds once (about half a minute): the same JSON as the command line.
    board = "12 1 10 2 7 11 4 14 5 0 9 15 8 13 6 3"
    db = slidedb.Database(tmp_path / "py", metric="multi")
    probe = db.probe(board)
    assert probe.as_dict() == cli_json(slidedb_cli, tmp_path / "cli", "probe", "--metric", "multi", board)
    found = db.solve(board)
    assert found.metric == "multi" and found.distance == probe.distance == len(found.slides)
    assert "".join(found.slides) == found.moves
    with pytest.raises(ValueError) as refused:
        db.random("4x4", distance=5)
    assert "no full table can serve 4x4 in the multi-tile metric" in str(refused.value)
