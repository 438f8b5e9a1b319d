"""The Python package: every call, bad input of every kind, the seed
cases, NumPy batches against per-board calls, and the GIL released while a
table is generated. Each test has a fresh data folder (tmp_path)."""

import threading
import time

import numpy as np
import pytest

import slidedb

SEED = "2 3 4 1 5 x 7 6 8"
SEED_MOVES = "ullddrurdllurdruldr"
HARDEST = "8 6 7 2 5 4 3 0 1"


@pytest.fixture
def db(tmp_path):
    return slidedb.Database(tmp_path)


@pytest.fixture(scope="module")
def table8():
    return slidedb.generate("3x3")


def apply(board, moves, size=None):
    """Plays the blank's moves on a board (a reference in Python)."""
    cells = slidedb.as_list(board, size)
    rows, cols = (3, 3) if size is None else size
    step = {"u": -cols, "d": cols, "l": -1, "r": 1}
    for m in moves:
        blank = cells.index(0)
        target = blank + step[m]
        assert 0 <= target < rows * cols
        if m in "lr":
            assert target // cols == blank // cols
        cells[blank], cells[target] = cells[target], cells[blank]
    return cells


def solvable_boards(n, seed=0):
    """n uniformly random solvable 3x3 boards (toward 1..8 0), (n, 9) uint8."""
    rng = np.random.default_rng(seed)
    b = rng.permuted(np.tile(np.arange(9, dtype=np.uint8), (n, 1)), axis=1)
    inv = np.zeros(n, dtype=np.int64)
    for i in range(9):
        for j in range(i + 1, 9):
            inv += (b[:, i] > b[:, j]) & (b[:, j] != 0)
    rows = np.nonzero(inv % 2 == 1)[0]
    # Swap the first two tiles of each odd board (skipping the blank).
    first = np.where(b[rows, 0] == 0, 1, 0)
    second = np.where((b[rows, 0] == 0) | (b[rows, 1] == 0), 2, 1)
    tmp = b[rows, first].copy()
    b[rows, first] = b[rows, second]
    b[rows, second] = tmp
    return b


# --- the seed cases ---------------------------------------------------------


def test_seed_board(db, tmp_path):
    found = db.solve(SEED)
    assert found.moves == SEED_MOVES
    assert found.distance == 19
    assert found.solvable
    assert repr(found) == f"Solution(moves='{SEED_MOVES}', distance=19, solvable=True)"
    assert found.as_dict() == {
        "board": "2 3 4 1 5 0 7 6 8",
        "goal": "1 2 3 4 5 6 7 8 0",
        "solvable": True,
        "distance": 19,
        "moves": SEED_MOVES,
    }
    # The table was built and saved in the data folder, as the CLI does.
    assert any(p.suffix == ".slidedb" for p in tmp_path.iterdir())


def test_course_project_goal(db):
    found = db.solve("724506831", goal="012345678")
    assert found.distance == 26
    assert apply("724506831", found.moves) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert db.distance("724506831", goal="012345678") == 26
    assert db.count("7 2 4 5 0 6 8 3 1", goal="0 1 2 3 4 5 6 7 8") == 3


def test_unsolvable_and_solved(db):
    found = db.solve("2 1 3 4 5 6 7 8 0")
    assert (found.moves, found.distance, found.solvable) == (None, None, False)
    assert repr(found) == "Solution(moves=None, distance=None, solvable=False)"
    assert db.distance("2 1 3 4 5 6 7 8 0") is None
    assert db.count("2 1 3 4 5 6 7 8 0") is None
    assert db.solve("1 2 3 4 5 6 7 8 0").moves == ""
    assert db.solve(SEED) == db.solve(SEED)
    assert hash(db.solve(SEED)) == hash(db.solve(SEED))


# --- boards in every form -----------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [
        SEED,
        "234150768",
        "2,3,4,1,5,0,7,6,8",
        "234/15x/768",
        "2 3 4 / 1 5 _ / 7 6 8",
        [2, 3, 4, 1, 5, 0, 7, 6, 8],
        (2, 3, 4, 1, 5, 0, 7, 6, 8),
        [[2, 3, 4], [1, 5, 0], [7, 6, 8]],
        np.array([2, 3, 4, 1, 5, 0, 7, 6, 8]),
        np.array([[2, 3, 4], [1, 5, 0], [7, 6, 8]], dtype=np.uint8),
        [np.int64(2), 3, 4, 1, 5, 0, 7, 6, 8],
    ],
)
def test_board_forms(db, board):
    assert db.solve(board).moves == SEED_MOVES


def test_sizes(db):
    for size in ["2x3", (2, 3), [2, 3]]:
        assert db.solve("1 2 3 4 0 5", size=size).moves == "r"
    assert db.solve([[1, 2, 3], [4, 0, 5]]).moves == "r"
    assert db.solve([[1, 2], [3, 4], [0, 5]]).distance is not None
    assert db.solve("1 2 3 0 4 5", goal="1 2 3 4 5 0", size="2x3").moves == "rr"
    with pytest.raises(ValueError, match="6 cells could be 2x3 or 3x2"):
        db.solve("1 2 3 0 4 5", goal="1 2 3 4 5 0")


def test_helpers():
    assert slidedb.as_list("123/456/78x") == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert slidedb.as_grid("123456780") == [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    assert slidedb.format_board([[1, 2], [3, 0]]) == "1 2 3 0"
    assert slidedb.as_list("1 2 3 4 5 0", size=(3, 2)) == [1, 2, 3, 4, 5, 0]
    assert slidedb.as_grid("1 2 3 4 5 0", size="3x2") == [[1, 2], [3, 4], [5, 0]]


# --- bad input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "board, message",
    [
        ("", "the board is empty"),
        ("1 2 3", "3 cells make no board"),
        ("7", "1 cell makes no board"),
        ("1/2 0", "rows of unequal length: row 1 has 1 cell, row 2 has 2"),
        ("1 1 2 3 4 5 6 7 0", "tile 1 appears twice"),
        ("1 2 3 4 5 6 7 8 9", "tile 9 is out of range: a 3x3 board has tiles 1 to 8"),
        ("1 2 3 4 5 6 7 0 0", "the board has 2 blanks; it needs exactly one"),
        ("1 2 3 4 5 6 7 8 a", '"a" is not a tile'),
        ("1 2 3 4 5 0", "6 cells could be 2x3 or 3x2"),
        ("12/345", "rows of unequal length: row 1 has 2 cells, row 2 has 3"),
        ("1 2 3,4 5 6 7 8 0", "mixed separators"),
        ([1, 2, 3, 4, 5, 6, 7, 8, -1], '"-1" is not a tile'),
        ([[1, 2, 3], [4, 5]], "rows of unequal length"),
        ([], "the board is empty"),
    ],
)
def test_bad_boards(db, board, message):
    with pytest.raises(ValueError, match=message):
        db.solve(board)


@pytest.mark.parametrize("board", [None, 5, 1.5, [1.5, 2.0], [True, 0, 1, 2], b"123456780", [[1, 2], 3, 0]])
def test_boards_of_the_wrong_type(db, board):
    with pytest.raises(TypeError):
        db.solve(board)


def test_bad_sizes_and_goals(db):
    with pytest.raises(ValueError, match="bad size"):
        db.solve(SEED, size="3by3")
    with pytest.raises(ValueError, match="no board of 1x9"):
        db.solve(SEED, size=(1, 9))
    with pytest.raises(ValueError, match="no board of 6x5"):
        db.solve(SEED, size="6x5")
    with pytest.raises(ValueError, match="sides are positive"):
        db.solve(SEED, size=(-3, -3))
    with pytest.raises(TypeError):
        db.solve(SEED, size=9)
    with pytest.raises(ValueError, match="9 cells given, but a 2x3 board has 6"):
        db.solve(SEED, size="2x3")
    with pytest.raises(ValueError, match="bad goal"):
        db.solve(SEED, goal="1 2 3")
    with pytest.raises(ValueError, match="9 cells given, but a 2x3 board has 6"):
        db.solve(SEED, goal="1 2 3 4 5 0", size="2x3")
    # A goal of another size than the board's.
    with pytest.raises(ValueError, match="cells given, but a 2x2 board has 4"):
        db.solve(SEED, goal="1 2 3 0")


def test_missing_and_damaged_files(db, tmp_path):
    with pytest.raises(slidedb.TableError, match="cannot read .*nope.slidedb"):
        slidedb.Table.open(tmp_path / "nope.slidedb")
    assert issubclass(slidedb.TableError, OSError)
    junk = tmp_path / "junk.slidedb"
    junk.write_bytes(b"not a table at all, not at all" * 10)
    with pytest.raises(slidedb.TableError, match="not a slidedb file"):
        slidedb.Table.open(junk)
    # A table with one byte of its body changed: its checksum fails.
    path = tmp_path / "t.slidedb"
    slidedb.generate("2x3").save(path)
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    bad = tmp_path / "bad.slidedb"
    bad.write_bytes(bytes(data))
    with pytest.raises(slidedb.TableError, match="bad.slidedb"):
        slidedb.Table.open(bad)
    # Truncated.
    short = tmp_path / "short.slidedb"
    short.write_bytes(path.read_bytes()[:-7])
    with pytest.raises(slidedb.TableError, match="truncated|damaged"):
        slidedb.Table.open(short)
    # A 3x4 table is missing from the folder and too big to build on the fly.
    with pytest.raises(slidedb.TableError, match="no table for 3x4"):
        db.count("1 2 3 4 5 6 7 8 9 10 11 0", size="3x4")
    # A damaged file in the data folder, under the table's own name.
    folder = tmp_path / "data"
    folder.mkdir()
    name = "2x3-1-2-3-4-5-0.slidedb"
    (folder / name).write_bytes(bytes(data))
    with pytest.raises(slidedb.TableError, match=name):
        slidedb.Database(folder).solve("1 2 3 4 0 5", size="2x3")


def test_boards_too_big_for_a_table(db):
    fifteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
    with pytest.raises(ValueError, match="count needs a full table.*4x4"):
        db.count(fifteen)
    with pytest.raises(ValueError, match="built in memory up to 12 cells"):
        slidedb.generate("4x4")
    # A 4x4 board one move away is solved by IDA* without a table.
    assert db.solve(fifteen).moves == "r"


# --- probe, count, random, layer, stats ---------------------------------------


def test_probe(db):
    probe = db.probe("1 2 3 4 5 6 7 0 8")
    assert probe.distance == 1 and probe.solvable
    assert [(m.move, m.distance, m.optimal) for m in probe.moves] == [
        ("u", 2, False),
        ("l", 2, False),
        ("r", 0, True),
    ]
    assert probe.optimal_moves == "r"
    assert probe.moves[2].board == "1 2 3 4 5 6 7 8 0"
    assert probe.as_dict()["moves"][2] == {
        "move": "r",
        "board": "1 2 3 4 5 6 7 8 0",
        "distance": 0,
        "optimal": True,
    }
    assert "r:0*" in repr(probe)
    unsolvable = db.probe("2 1 3 4 5 6 7 8 0")
    assert (unsolvable.distance, unsolvable.solvable, unsolvable.moves) == (None, False, [])


def test_count(db):
    assert db.count(HARDEST) == 40
    assert isinstance(db.count(HARDEST), int)
    assert db.count("1 2 3 4 5 6 7 8 0") == 1


def test_count_is_exact_beyond_64_bits(tmp_path):
    # The 2x5 table (1.8 million boards) is built on demand only up to 9
    # cells: generate and save it into the folder first.
    table = slidedb.generate("2x5")
    table.save(tmp_path / "2x5-1-2-3-4-5-6-7-8-9-0.slidedb")
    db = slidedb.Database(tmp_path)
    far = db.layer("max", size="2x5")
    board = next(far)
    count = db.count(board, size="2x5")
    assert isinstance(count, int) and count > 0
    assert db.distance(board, size="2x5") == 55


def test_random(db):
    boards = db.random("3x3", distance=20, count=5, seed=7)
    assert len(boards) == 5 and all(isinstance(b, str) for b in boards)
    assert all(db.distance(b) == 20 for b in boards)
    assert db.random("3x3", distance=20, count=5, seed=7) == boards
    assert db.random((3, 3), distance=(10, 12), count=20, seed=1) != []
    assert all(10 <= db.distance(b) <= 12 for b in db.random("3x3", distance=(10, 12), count=20, seed=1))
    assert all(db.distance(b) == 31 for b in db.random("3x3", distance="max", count=3, seed=2))
    anywhere = db.random("2x3", count=50, seed=3)
    assert len(set(anywhere)) > 10 and all(db.distance(b, size="2x3") is not None for b in anywhere)
    assert db.random(count=0) == []
    assert len(db.random()) == 1
    assert db.random(goal="0 1 2 3 4 5 6 7 8", distance=5, seed=1)[0] != ""
    with pytest.raises(ValueError, match="the farthest are 31 moves away"):
        db.random("3x3", distance=32)
    with pytest.raises(ValueError, match="bad distance -1"):
        db.random("3x3", distance=-1)
    with pytest.raises(ValueError, match="bad count"):
        db.random("3x3", count=-1)
    with pytest.raises(ValueError, match="more than the greatest"):
        db.random("3x3", distance=(12, 10))
    with pytest.raises(ValueError, match='bad distance "far"'):
        db.random("3x3", distance="far")
    with pytest.raises(TypeError):
        db.random("3x3", distance=2.5)
    with pytest.raises(ValueError, match="needs a full table"):
        db.random("4x4", distance=3)


def test_layer(db):
    assert sorted(db.layer(31)) == ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]
    assert list(db.layer("max")) == list(db.layer(31))
    assert list(db.layer(0)) == ["1 2 3 4 5 6 7 8 0"]
    # Past the farthest boards: an error, as for random (and the command line).
    with pytest.raises(ValueError, match="no 3x3 board is 32 moves from goal 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away"):
        db.layer(32)
    layer = db.layer(20)
    assert layer.__length_hint__() == db.stats()["layers"][20]
    boards = list(layer)
    assert len(boards) == 16_993 == len(set(boards))
    assert all(db.distance(b) == 20 for b in boards[:100])
    # An iterator dropped half-way stops its thread.
    it = db.layer(25)
    assert next(it)
    del it
    with pytest.raises(ValueError, match="bad distance"):
        db.layer(-2)


def test_stats(db):
    stats = db.stats("3x3")
    assert set(stats) == {
        "size",
        "goal",
        "states",
        "max_distance",
        "mean_distance",
        "layers",
        "hardest",
        "generator",
    }
    assert (stats["size"], stats["states"], stats["max_distance"]) == ("3x3", 181440, 31)
    assert sum(stats["layers"]) == 181440
    assert sorted(stats["hardest"]) == ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]
    assert db.stats(goal="0 1 2 3 4 5 6 7 8")["goal"] == "0 1 2 3 4 5 6 7 8"
    assert db.stats((2, 3))["max_distance"] == 21


def test_database_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("SLIDEDB_DATA", str(tmp_path / "env"))
    db = slidedb.Database()
    assert str(db.data_dir) == str(tmp_path / "env")
    assert db.solve(SEED).moves == SEED_MOVES
    memory = slidedb.Database.in_memory()
    assert memory.data_dir is None
    assert memory.solve(SEED).moves == SEED_MOVES
    assert "in_memory" in repr(memory)


# --- tables -------------------------------------------------------------------


def test_generate_save_open(tmp_path):
    layers = []
    table = slidedb.generate("2x3", progress=layers.append)
    assert [layer.depth for layer in layers] == list(range(22))
    assert layers[-1].total == 360 and layers[-1].elapsed >= 0
    assert (table.size, table.states, table.max_distance) == ("2x3", 360, 21)
    assert table.goal == "1 2 3 4 5 0"
    path = tmp_path / "t.slidedb"
    table.save(path)
    with pytest.raises(slidedb.TableError, match="cannot write"):
        table.save(path)
    table.save(path, overwrite=True)
    opened = slidedb.Table.open(path)
    assert opened.layers == table.layers
    assert opened.solve("1 2 3 4 0 5").moves == "r"
    assert opened.stats()["states"] == 360
    assert "2x3" in repr(opened)
    other = slidedb.generate((3, 2), goal="0 1 2 3 4 5", threads=1)
    assert other.goal == "0 1 2 3 4 5"
    assert other.solve([[1, 0], [2, 3], [4, 5]]).moves == "l"


def test_generate_bad_input():
    with pytest.raises(ValueError, match="bad thread count 0"):
        slidedb.generate("2x3", threads=0)
    with pytest.raises(TypeError):
        slidedb.generate()
    with pytest.raises(ValueError, match="bad size"):
        slidedb.generate("big")

    def fails(layer):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        slidedb.generate("2x3", progress=fails)


def test_table_queries(table8):
    assert table8.solve(SEED).moves == SEED_MOVES
    assert table8.distance(HARDEST) == 31
    assert table8.count(HARDEST) == 40
    assert table8.probe(SEED).distance == 19
    with pytest.raises(ValueError, match="6 cells given, but a 3x3 board has 9"):
        table8.solve("1 2 3 4 5 0")


# --- NumPy batches ------------------------------------------------------------


def test_batches_match_per_board_calls(table8, db):
    boards = solvable_boards(2000, seed=1)
    unsolvable = boards[:5].copy()
    unsolvable[:, [0, 1]] = unsolvable[:, [1, 0]]
    # (Swapping two cells that include the blank keeps the parity: avoid it.)
    keep = (unsolvable[:, 0] != 0) & (unsolvable[:, 1] != 0)
    boards = np.concatenate([boards, unsolvable[keep]])
    distances = table8.distances(boards)
    assert distances.shape == (len(boards),) and distances.dtype == np.int64
    moves = table8.solve_many(boards)
    for board, d, m in zip(boards, distances, moves):
        expected = db.solve(board)
        assert d == (-1 if expected.distance is None else expected.distance)
        assert m == expected.moves
        if m is not None:
            assert apply(board, m) == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert (distances[-int(keep.sum()) :] == -1).all()


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64])
def test_batch_dtypes(table8, dtype):
    boards = solvable_boards(100, seed=2)
    expected = table8.distances(boards)
    assert (table8.distances(boards.astype(dtype)) == expected).all()
    assert (table8.distances(boards.astype(dtype).reshape(100, 3, 3)) == expected).all()
    assert (table8.distances(boards.tolist()) == expected).all()
    # Not contiguous: every other board.
    assert (table8.distances(boards.astype(dtype)[::2]) == expected[::2]).all()


def test_batch_bad_input(table8):
    good = solvable_boards(10)
    assert table8.distances(np.empty((0, 9), dtype=np.int64)).shape == (0,)
    assert table8.solve_many(np.empty((0, 9), dtype=np.int64)) == []
    with pytest.raises(ValueError, match="8 cells given, but a 3x3 board has 9"):
        table8.distances(good[:, :8])
    with pytest.raises(ValueError, match=r"must be an \(n, 9\) array"):
        table8.distances(good[0])
    with pytest.raises(ValueError, match="boards of 2x2 given"):
        table8.distances(np.zeros((1, 2, 2), dtype=int))
    with pytest.raises(TypeError, match="integer array"):
        table8.distances(good.astype(float))
    bad = good.astype(np.int64)
    bad[3, 4] = 9
    with pytest.raises(ValueError, match="board 3: tile 9 is out of range"):
        table8.distances(bad)
    bad[3, 4] = -1
    with pytest.raises(ValueError, match='board 3: "-1" is not a tile'):
        table8.solve_many(bad)
    twice = good.copy()
    twice[7] = [1, 1, 2, 3, 4, 5, 6, 7, 0]
    with pytest.raises(ValueError, match="board 7: tile 1 appears twice"):
        table8.distances(twice)
    with pytest.raises(ValueError, match="board 7: tile 1 appears twice"):
        table8.solve_many(twice)


# --- the GIL ------------------------------------------------------------------


def ticks_during(work):
    """Runs `work()` while another Python thread counts as fast as it can:
    (what work returned, how many counts fell while it ran, its seconds)."""
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.05)
        start = time.perf_counter()
        result = work()
        end = time.perf_counter()
    finally:
        stop.set()
        counter.join()
    return result, sum(1 for t in ticks if start < t < end), end - start


def test_generation_releases_the_gil():
    """Another Python thread runs while a table is generated."""
    table, during, seconds = ticks_during(lambda: slidedb.generate("2x5", threads=1))  # 1.8 million boards
    assert table.states == 1_814_400
    # Held, the GIL would let the counter run at most once or twice in
    # between; released, it runs freely.
    assert seconds > 0.02
    assert during > 1000, (during, seconds)


def test_batches_release_the_gil(table8):
    boards = solvable_boards(300_000, seed=5)
    _, during, _ = ticks_during(lambda: table8.solve_many(boards))
    assert during > 100


def test_help_reads_well():
    doc = slidedb.Database.__doc__
    assert "data folder" in doc
    assert "solve" in slidedb.Database.solve.__doc__
    assert slidedb.Database.solve.__text_signature__ == "($self, board, goal=None, size=None)"
    assert "(n, cells)" in slidedb.Table.distances.__doc__
