"""`cardtable demo` end to end: engine, firmware behind a pty, gpiozero mock pins, and a replayable history."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest


def cardtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("players", [2, 4])
def test_demo_plays_a_whole_game_and_its_history_replays_identically(tmp_path: Path, players: int) -> None:
    history = tmp_path / "demo.jsonl"
    result = cardtable("demo", "--players", str(players), "--seed", "11", "--delay", "0", "--history", str(history))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "game over:" in out
    assert "the board acknowledged the final pegs: True" in out
    assert "REJECTED:" in out  # the simulated players try illegal plays, and the engine refuses them

    replayed = [json.loads(line) for line in cardtable("replay", str(history)).stdout.splitlines()]
    summary = replayed[-1]
    assert all(line["ok"] for line in replayed[:-1])
    assert summary["winner"] is not None and max(summary["scores"]) >= 121
    scores = [int(m) for m in re.findall(r"(\d+) points   pegs:", out)]
    assert scores == summary["scores"]
