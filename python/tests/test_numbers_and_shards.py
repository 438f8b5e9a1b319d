"""Numbers from Python at the edges of their range (thread counts, tiles,
seeds, counts, distances, sizes), saving a sharded table (a directory
a distributed build wrote) as one table file, and seeded random draws
that are the command line's."""

import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import slidedb

GOOD = [1, 2, 3, 4, 5, 6, 7, 0, 8]
OUT_OF_RANGE = "is out of range: a 3x3 board has tiles 1 to 8"


def with_cell(value, at=8):
    cells = list(GOOD)
    cells[at] = value
    return cells


# --- thread counts --------------------------------------------------------------


@pytest.mark.parametrize("threads", [0, -1, 257, 10**9, 2**64], ids=["0", "-1", "257", "1e9", "2**64"])
def test_generate_thread_count_is_bounded_as_the_command_line(threads):
    # As `slidedb-gen --threads`: 1 to 256 (no pool of a billion threads).
    with pytest.raises(ValueError, match=rf"bad thread count {threads}: use 1 to 256 threads \(this machine has \d+ cores\)"):
        slidedb.generate("2x2", threads=threads)


def test_generate_thread_count_types():
    assert slidedb.generate("2x2", threads=256).states == 12
    assert slidedb.generate("2x2", threads=np.int64(2)).states == 12
    for threads in [1.5, "2", True]:
        with pytest.raises(TypeError, match="threads must be an integer from 1 to 256"):
            slidedb.generate("2x2", threads=threads)


# --- tiles ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "board, tile",
    [
        (with_cell(2**64 - 1), 2**64 - 1),
        (with_cell(2**63), 2**63),
        (tuple(with_cell(2**70)), 2**70),
        (with_cell(1000), 1000),
        ([with_cell(10**6)[:3], with_cell(10**6)[3:6], with_cell(10**6)[6:]], 10**6),
        (with_cell(np.uint64(2**64 - 1)), 2**64 - 1),
        (np.array(with_cell(2**64 - 1), dtype=np.uint64), 2**64 - 1),
        (np.array(with_cell(2**63), dtype=np.uint64).reshape(3, 3), 2**63),
        (np.array(with_cell(2**63 - 1), dtype=np.int64), 2**63 - 1),
    ],
    ids=["list-2**64-1", "list-2**63", "tuple-2**70", "list-1000", "rows-10**6", "np.uint64-cell", "uint64-array", "uint64-rows", "int64-max"],
)
def test_big_tiles_are_out_of_range(board, tile):
    message = f"tile {tile} {OUT_OF_RANGE}"
    db = slidedb.Database.in_memory()
    with pytest.raises(ValueError, match=message):
        db.solve(board)
    with pytest.raises(ValueError, match=message):
        slidedb.as_list(board)
    with pytest.raises(ValueError, match=f"bad goal .*: {message}"):
        db.solve(GOOD, goal=board)


@pytest.mark.parametrize("digits", [20, 26, 100])
def test_a_number_of_any_length_is_out_of_range_as_written(digits):
    # The command line's words for a string or an int of any size: the
    # number as written, cut with an ellipsis past 40 characters.
    number = "9" * digits
    shown = number if digits <= 40 else "9" * 40 + "…"
    message = f"tile {shown} {OUT_OF_RANGE}"
    db = slidedb.Database.in_memory()
    for board in [f"{number} 1 2 3 4 5 6 7 0", with_cell(int(number), at=0)]:
        with pytest.raises(ValueError) as refused:
            db.solve(board)
        assert str(refused.value).startswith(message)
        assert "not a tile" not in str(refused.value)


def test_the_first_tile_out_of_range_is_named():
    cells = with_cell(9, at=2)
    cells[5] = 2**64
    # 9 comes first in reading order, then 2**64.
    with pytest.raises(ValueError, match=f"tile 9 {OUT_OF_RANGE}"):
        slidedb.as_list(cells)
    cells = with_cell(2**64, at=2)
    cells[5] = 9
    with pytest.raises(ValueError, match=f"tile {2**64} {OUT_OF_RANGE}"):
        slidedb.as_list(cells)
    goal = "bad goal \"1 2 18446744073709551616 4 5 9 7 0 8\""
    with pytest.raises(ValueError, match=goal):
        slidedb.Database.in_memory().solve(GOOD, goal=cells)


def test_big_negative_tile_is_named_whole():
    with pytest.raises(ValueError, match=f'"{-(2**70)}" is not a tile'):
        slidedb.as_list(with_cell(-(2**70)))


@pytest.mark.parametrize(
    "boards, tile",
    [
        (np.array([GOOD, with_cell(2**64 - 1)], dtype=np.uint64), 2**64 - 1),
        (np.array([GOOD, with_cell(2**63)], dtype=np.uint64), 2**63),
        (np.array([GOOD, with_cell(2**63)], dtype=np.uint64).reshape(2, 3, 3), 2**63),
        ([GOOD, with_cell(2**64 - 1)], 2**64 - 1),  # NumPy reads the list as float64
        ([GOOD, with_cell(2**70)], 2**70),  # and this one as objects
    ],
    ids=["uint64-2**64-1", "uint64-2**63", "uint64-rows", "list-2**64-1", "list-2**70"],
)
def test_batch_big_tiles_are_out_of_range(boards, tile):
    table = slidedb.generate("3x3")
    message = f"board 1: tile {tile} {OUT_OF_RANGE}"
    with pytest.raises(ValueError, match=message):
        table.distances(boards)
    with pytest.raises(ValueError, match=message):
        table.solve_many(boards)


def test_batch_of_python_ints_as_objects():
    table = slidedb.generate("3x3")
    boards = np.array([GOOD, [1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=object)
    assert table.distances(boards).tolist() == [1, 0]
    assert table.solve_many(boards) == ["r", ""]
    with pytest.raises(ValueError, match=f'board 1: "{-(2**70)}" is not a tile'):
        table.distances([GOOD, with_cell(-(2**70))])
    with pytest.raises(TypeError, match="integer array"):
        table.distances(np.array([GOOD, with_cell(1.5)], dtype=object))
    with pytest.raises(TypeError, match="integer array"):
        table.distances([GOOD, with_cell(1.5)])


# --- seeds, counts, distances, sizes ------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, -(2**70)])
def test_seed_out_of_range(seed):
    db = slidedb.Database.in_memory()
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*64-1"):
        db.random("3x3", seed=seed)
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*64-1"):
        db.random("3x3", distance=5, seed=seed)


def test_seed_edges_and_types():
    db = slidedb.Database.in_memory()
    assert db.random("3x3", count=3, seed=2**64 - 1) == db.random("3x3", count=3, seed=np.uint64(2**64 - 1))
    assert db.random("3x3", count=3, seed=0) != db.random("3x3", count=3, seed=2**64 - 1)
    for seed in [1.5, "1"]:
        with pytest.raises(TypeError, match=r"seed must be an integer from 0 to 2\*\*64-1"):
            db.random("3x3", seed=seed)


def test_count_out_of_range():
    db = slidedb.Database.in_memory()
    with pytest.raises(ValueError, match=f"bad count {2**64}"):
        db.random("3x3", count=2**64)
    with pytest.raises(ValueError, match=f"bad count {-(2**70)}: a number of boards, 0 or more"):
        db.random("3x3", count=-(2**70))
    assert len(db.random("3x3", count=np.int64(3), seed=1)) == 3


def test_distances_out_of_range():
    db = slidedb.Database.in_memory()
    with pytest.raises(ValueError, match=f"no 3x3 board is {2**70} moves from goal .*: the farthest are 31 moves away"):
        db.random("3x3", distance=2**70)
    with pytest.raises(ValueError, match=f"no 3x3 board is {2**32} moves from goal"):
        db.random("3x3", distance=2**32)
    with pytest.raises(ValueError, match=f"bad distance {-(2**70)}: distances are 0 or more"):
        db.random("3x3", distance=-(2**70))
    with pytest.raises(ValueError, match=f"the least distance {2**70} is more than the greatest 3"):
        db.random("3x3", distance=(2**70, 3))
    # A range reaching past the farthest boards is the range up to them.
    assert all(29 <= db.distance(b) <= 31 for b in db.random("3x3", distance=(29, 2**70), count=5, seed=1))
    with pytest.raises(ValueError, match=f"no 3x3 board is {2**70} moves from goal .*: the farthest are 31 moves away"):
        db.layer(2**70)
    assert list(db.layer(np.int64(31))) == list(db.layer(31))
    assert db.random("3x3", distance=np.uint8(31), seed=1)[0] in list(db.layer(31))
    with pytest.raises(TypeError):
        db.layer(True)


def test_sizes_out_of_range():
    db = slidedb.Database.in_memory()
    with pytest.raises(ValueError, match=f"no board of {2**70}x3: both sides must be at least 2"):
        db.solve("1 2 3 4 5 0", size=(2**70, 3))
    with pytest.raises(ValueError, match=f"no board of 2x{2**64}"):
        db.random(size=(2, 2**64))
    with pytest.raises(ValueError, match="sides are positive"):
        db.solve("1 2 3 4 5 0", size=(-(2**70), 3))
    assert db.solve("1 2 3 4 0 5", size=(np.int64(2), np.uint64(3))).moves == "r"


# --- saving a sharded table -------------------------------------------------------


def gen(slidedb_gen, *args):
    subprocess.run([slidedb_gen, *map(str, args), "--quiet"], check=True, timeout=300)


@pytest.mark.parametrize("size, workers", [("3x3", 2), ("2x3", 3)])
def test_save_sharded_table_writes_the_merged_table(slidedb_gen, tmp_path, size, workers):
    shards = tmp_path / "shards"
    gen(slidedb_gen, "--size", size, "--workers", workers, "--out", shards)
    assert (shards / "manifest.slidedb").is_file()
    merged = tmp_path / "merged.slidedb"
    gen(slidedb_gen, "merge", shards, "--out", merged)

    table = slidedb.Table.open(shards)
    saved = tmp_path / "saved.slidedb"
    table.save(saved)
    assert saved.read_bytes() == merged.read_bytes()
    # The same bytes as a table built in one piece.
    built = tmp_path / "built.slidedb"
    slidedb.generate(size).save(built)
    assert saved.read_bytes() == built.read_bytes()
    reopened = slidedb.Table.open(saved)
    assert reopened.layers == table.layers
    # As any save: an existing file only with overwrite, and no file left behind.
    with pytest.raises(slidedb.TableError, match="cannot write .*exists"):
        table.save(saved)
    saved.write_bytes(b"old")
    table.save(saved, overwrite=True)
    assert saved.read_bytes() == merged.read_bytes()
    # (Besides the stamp of the check of saved.slidedb that Table.open left.)
    left = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".verified"))
    assert left == ["built.slidedb", "merged.slidedb", "saved.slidedb", "shards"]
    with pytest.raises(slidedb.TableError, match="cannot write"):
        table.save(tmp_path / "missing" / "t.slidedb")

    # A sharded table found in a data folder under the table's name.
    data = tmp_path / "data"
    data.mkdir()
    name = f"{size}-{'-'.join(table.goal.split())}.slidedb"
    shutil.copytree(shards, data / name)
    from_folder = slidedb.Database(data).table(size)
    again = tmp_path / "again.slidedb"
    from_folder.save(again)
    assert again.read_bytes() == merged.read_bytes()


def test_save_sharded_table_refuses_shards_changed_since_opened(slidedb_gen, tmp_path):
    shards = tmp_path / "shards"
    gen(slidedb_gen, "--size", "2x3", "--workers", "2", "--out", shards)
    table = slidedb.Table.open(shards)
    # Another build (another run) over the same directory.
    gen(slidedb_gen, "--size", "2x3", "--workers", "2", "--out", shards, "--force")
    out = tmp_path / "t.slidedb"
    with pytest.raises(slidedb.TableError, match="changed since the table was opened"):
        table.save(out)
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shards"]


# --- seeded draws, as the command line's ------------------------------------------

# The boards `slidedb random` prints with these options (checked against the
# program, when the test finds it, by the test after this one): a seed draws
# the same boards from Python as from the command line and the server.
SEEDED = [
    (dict(seed=7, distance=20, count=5), "--seed 7 --distance 20 --count 5",
     ["0 1 5 6 3 7 4 2 8", "7 5 6 1 0 2 3 4 8", "2 6 0 7 3 5 4 8 1", "5 6 0 2 1 3 4 8 7", "1 6 3 5 0 7 2 8 4"]),
    (dict(seed=1, distance=(10, 12), count=5), "--seed 1 --min 10 --max 12 --count 5",
     ["4 1 3 7 6 8 0 5 2", "1 6 2 3 0 8 4 7 5", "1 2 3 4 5 7 8 0 6", "3 4 5 1 0 6 7 2 8", "1 3 5 8 7 2 4 0 6"]),
    (dict(seed=2, distance="max", count=3), "--seed 2 --distance max --count 3",
     ["8 6 7 2 5 4 3 0 1", "8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]),
    (dict(seed=4, distance=(29, 10**11), count=3), "--seed 4 --min 29 --max 100000000000 --count 3",
     ["6 5 7 8 4 2 3 0 1", "6 5 0 8 3 4 7 1 2", "4 8 7 3 5 0 1 2 6"]),
    (dict(seed=3, size="2x3", count=4), "--seed 3 --size 2x3 --count 4",
     ["1 4 5 2 3 0", "2 4 1 5 0 3", "0 2 5 1 3 4", "5 2 3 0 1 4"]),
    (dict(seed=9, size="4x4", count=3), "--seed 9 --size 4x4 --count 3",
     ["4 2 0 9 7 14 5 12 8 6 1 13 15 3 11 10", "12 9 6 1 5 10 3 13 4 0 11 15 7 2 8 14",
      "15 3 7 9 2 12 8 13 6 5 10 1 11 14 0 4"]),
    (dict(seed=2**64 - 1, count=2), f"--seed {2**64 - 1} --count 2", ["5 0 6 4 3 2 1 7 8", "1 2 5 3 8 4 7 0 6"]),
]

# Questions the library turns down, and how the command line asks them: the
# same message from both, the checks in the same order.
REFUSED = [
    (lambda db: db.random(distance=(12, 10)), "random --min 12 --max 10"),
    (lambda db: db.random(distance=32), "random --distance 32"),
    (lambda db: db.random(distance=10**11), "random --distance 100000000000"),
    (lambda db: db.random(distance=(32, 40)), "random --min 32 --max 40"),
    (lambda db: db.random(size="4x4", distance=(5, 10**11)), "random --size 4x4 --min 5 --max 100000000000"),
    (lambda db: db.layer(32), "layer 32"),
]


@pytest.mark.parametrize("kwargs, args, boards", SEEDED, ids=[args for _, args, _ in SEEDED])
def test_seeded_random_draws_the_command_lines_boards(kwargs, args, boards):
    assert slidedb.Database.in_memory().random(**kwargs) == boards


def test_seeded_random_is_the_programs(slidedb_cli, tmp_path):
    env = dict(os.environ, SLIDEDB_DATA=str(tmp_path))
    db = slidedb.Database(tmp_path)
    for kwargs, args, boards in SEEDED:
        printed = subprocess.run(
            [slidedb_cli, "random", *args.split()], env=env, capture_output=True, text=True, check=True, timeout=120
        ).stdout.splitlines()
        assert printed == boards, args
        assert db.random(**kwargs) == printed, args
    for ask, args in REFUSED:
        run = subprocess.run([slidedb_cli, *args.split()], env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode != 0, args
        said = run.stderr.strip().splitlines()[-1]
        with pytest.raises(ValueError) as refused:
            ask(db)
        assert said == f"slidedb: error: {refused.value}", args


def test_five_by_five_through_pattern_databases(slidedb_gen, tmp_path):
    # No databases: refused (no search that could run for days), saying so.
    db = slidedb.Database(tmp_path)
    near = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24"
    with pytest.raises(slidedb.TableError, match="no pattern databases for 5x5"):
        db.solve(near)
    # A small partition in the data folder answers, toward any goal of the
    # class, in the command line's JSON shape.
    gen(slidedb_gen, "--size", "5x5", "--pdb", "4-4-4-4-4-4", "--data", tmp_path)
    db = slidedb.Database(tmp_path)
    assert db.solve(near).moves == "r"
    korf = " ".join(map(str, range(25)))
    one_away = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"
    found = db.solve(one_away, goal=korf)
    assert found.as_dict() == {
        "board": one_away,
        "goal": korf,
        "solvable": True,
        "distance": 1,
        "moves": "l",
    }
    assert db.probe(one_away, goal=korf).distance == 1


def test_sizes_are_the_programs(slidedb_gen, slidedb_cli, tmp_path):
    # What the data folder holds decides: a 2x5 table and 5x5 databases
    # put both sizes on the list, answered by what the folder holds.
    before = slidedb.Database(tmp_path).sizes()
    assert not any(s["size"] in ("2x5", "5x5") for s in before)
    gen(slidedb_gen, "--size", "2x5", "--data", tmp_path)
    gen(slidedb_gen, "--size", "5x5", "--pdb", "4-4-4-4-4-4", "--data", tmp_path)
    sizes = slidedb.Database(tmp_path).sizes()
    by_size = {s["size"]: s for s in sizes}
    assert by_size["2x5"] == {"size": "2x5", "exact": "table", "goal": "1 2 3 4 5 6 7 8 9 0"}
    assert by_size["5x5"]["exact"] == "patterns"
    assert by_size["3x3"]["exact"] == "table"
    # The same list, in the same order and shape, as the command line's.
    env = dict(os.environ, SLIDEDB_DATA=str(tmp_path))
    printed = subprocess.run(
        [slidedb_cli, "sizes", "--json"], env=env, capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()
    assert [json.loads(line) for line in printed] == sizes
