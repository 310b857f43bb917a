"""The game-agnostic part of the `cardtable replay` contract: exit codes and messages for unreadable files."""
import json
import subprocess
import sys
from pathlib import Path

import pytest


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("content,fragment", [
    ("", "line 1: empty file"),
    ('{"format": "cardtable-history/1", "game": "chess", "players": ["A", "B"], "dealer": 0}\n', "line 1: bad header"),
    ('{"format": "cardtable-history/1", "game": "cribbage", "players": ["A", "B"], "dealer": 0}\n{oops\n',
     "line 2: bad JSON"),
    ('{"format": "cardtable-history/1", "game": "cribbage", "players": ["A", "B"], "dealer": 0,'
     ' "options": {"tagret": 61}}\n', "line 1: bad header: unknown option"),
])
def test_unreadable_history_exits_2_naming_the_line(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(content, encoding="utf-8")
    result = run_replay(path)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert result.stdout == ""


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = run_replay(tmp_path / "nope.jsonl")
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_rejected_events_do_not_stop_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    header = {"format": "cardtable-history/1", "game": "cribbage", "players": ["A", "B"], "dealer": 0,
              "options": {}, "chips": None}
    path.write_text("\n".join(json.dumps(o) for o in [header, {"no": "type"}, {"type": "teleport"}]) + "\n")
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("n") for o in out[:2]] == [2, 3]
    assert [o["ok"] for o in out[:2]] == [False, False]
    assert all(o["error"] for o in out[:2])
    assert out[-1]["type"] == "summary" and out[-1]["game"] == "cribbage"
