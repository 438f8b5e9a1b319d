"""The README's Python session is its real output: its `pycon` block runs
as a doctest (in an empty data folder and working directory), so a
message or a figure it quotes cannot drift from the package."""

import doctest
import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def sessions():
    text = README.read_text(encoding="utf-8")
    for match in re.finditer(r"^```pycon\n(.*?)^```", text, re.S | re.M):
        yield text.count("\n", 0, match.start()) + 2, match.group(1)


def test_the_readmes_python_session_prints_what_it_shows(tmp_path, monkeypatch):
    found = list(sessions())
    assert found, "the README has no pycon session"
    monkeypatch.setenv("SLIDEDB_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    for line, block in found:
        test = parser.get_doctest(block, {}, "README.md", str(README), line - 1)
        assert len(test.examples) > 10
        runner = doctest.DocTestRunner(optionflags=0)
        lines = []
        runner.run(test, out=lines.append)
        result = runner.summarize(verbose=False)
        assert result.failed == 0, "".join(lines)
        assert result.attempted == len(test.examples)
    assert os.listdir(tmp_path) == ["data"]
