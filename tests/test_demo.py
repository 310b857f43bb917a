"""`cardtable demo` on the real pipeline: whole games played with rendered cards, read by the real vision,
judged by the table session, journaled; the hand history they leave replays to the simulated table's
own result (its engine was told every true card)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.demo import play_demo
from controller.history import read_history
from controller.journal import Journal
from controller.replay import replay

FAST = {"reads": 1}  # one read per settled scene: the players nudge a card the table missed


def replayed(path: Path) -> list[dict[str, Any]]:
    header, lines = read_history(path)
    return list(replay(header, lines))


@pytest.mark.parametrize("game, players, deal, options", [
    ("cribbage", 2, "closed", {"target": 61}),
    ("femkort", 3, "open", {"pots_to_win": 1}),
])
def test_a_whole_game_through_the_pipeline_ends_as_the_simulated_table_did(
        tmp_path: Path, game: str, players: int, deal: str, options: dict[str, Any]) -> None:
    said: list[str] = []
    journal = tmp_path / "demo.journal"
    run = play_demo(said.append, game, players, deal, seed=5, journal_path=str(journal), options=options,
                    mistakes=0.15, unreadable=0.1, **FAST)
    assert run.summary["winner"] is not None
    assert run.same_result, (run.summary, run.truth)
    text = "\n".join(said)
    assert "REFUSED:" in text and "the player takes" in text  # a mistake refused, the card taken back
    assert "HOLD: an unreadable card" in text and "the dealer names the card" in text
    # the journal holds the game's accepted events; their history replays to the same result
    history = tmp_path / "game.jsonl"
    with Journal.open(str(journal)) as opened:
        (record,) = opened.games()
        history.write_text("".join(line + "\n" for line in opened.history_lines(record.id)))
    results = replayed(history)
    assert all(result["ok"] for result in results[:-1])
    summary = results[-1]
    for key in ("scores", "chips", "winner"):
        assert summary[key] == run.truth[key]


def test_the_command_plays_narrates_and_writes_a_history_that_replays(tmp_path: Path) -> None:
    history = tmp_path / "demo.jsonl"
    result = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--game", "femkort", "--seed", "2",
                             "--reads", "1", "--options", '{"pots_to_win": 1}', "--history", str(history)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "camera: " in out and "button NEXT" in out and "Ann plays" in out
    assert "the simulated table's own result: the same" in out
    summary = replayed(history)[-1]
    assert "chips: " + ", ".join(f"{name} {chips}" for name, chips in zip(("Ann", "Bo", "Cy"), summary["chips"])) in out


def test_the_command_refuses_a_player_count_the_game_does_not_take() -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--game", "femkort", "--players", "2"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == "cardtable demo: error: argument --players: the demo plays femkort with 3 to 4 players, not 2\n"
