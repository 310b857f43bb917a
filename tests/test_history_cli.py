"""`cardtable history list|export`: the journal's games, one exported as a hand history that replays cleanly;
a missing or foreign journal, an unknown game, an existing OUT: exit 2, a message naming it, nothing written."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.history import result
from controller.journal import GameRecord, Journal
from journal_support import journal_game, written


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games: a whole cribbage game that ended, then one of a few events still being played."""
    path = tmp_path_factory.mktemp("state") / "journal.sqlite3"
    with Journal.open(path, synchronous="NORMAL") as journal:
        journal_game(journal, seed=4, end=True)
        journal_game(journal, seed=5, limit=7)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["history", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_list_shows_each_game_with_its_players_times_events_and_result(
        journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "list", "--journal", str(journal_path))
    assert status == 0 and err == ""
    titles, finished, playing = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]
    assert titles == ["id", "game", "players", "started", "ended", "events", "result"]
    with Journal.open(journal_path, readonly=True) as journal:
        first, second = journal.games()
    assert first.summary is not None
    scores, winner = first.summary["scores"], first.summary["winner"]
    assert finished == [
        "1", "cribbage", "P0, P1", first.started, str(first.ended), str(first.events),
        f"P{winner} won {scores[0]}-{scores[1]}"]
    assert playing == ["2", "cribbage", "P0, P1", second.started, "-", "7",
                                                          "playing"]


def test_the_journal_defaults_to_the_state_directory(
        journal_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_STATE_DIR", str(journal_path.parent))
    status, out, _ = run(capsys, "list")
    assert status == 0 and len(out.splitlines()) == 3


def test_export_writes_the_last_game_by_default_and_replay_judges_it_cleanly(
        journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "game.jsonl"
    assert run(capsys, "export", "--journal", str(journal_path), str(out_path)) == (0, "", "")
    with Journal.open(journal_path, readonly=True) as journal:
        assert out_path.read_text(encoding="utf-8").splitlines() == list(journal.history_lines(2))
    assert main(["replay", str(out_path)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == 8 and all(r["ok"] for r in results[:-1]) and results[-1]["type"] == "summary"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary left


def test_export_of_a_chosen_game_to_standard_output(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "export", "--game", "1", "--journal", str(journal_path), "-")
    header, *events = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and header["format"] == "cardtable-history/1" and "deal" not in header
    with Journal.open(journal_path, readonly=True) as journal:
        assert events == journal.events(1) and len(events) == journal.game(1).events


def test_export_refuses_to_overwrite_without_force(
        journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "game.jsonl"
    out_path.write_text("keep me\n")
    status, _, err = run(capsys, "export", "--journal", str(journal_path), str(out_path))
    assert status == 2 and err == f"cardtable history export: {out_path} exists (--force replaces it)\n"
    assert out_path.read_text() == "keep me\n"
    assert run(capsys, "export", "--force", "--journal", str(journal_path), str(out_path))[0] == 0
    assert out_path.read_text().startswith('{"format": "cardtable-history/1"')


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")


@pytest.mark.parametrize("argv,message", [
    (["list", "--journal", "{tmp}/none.sqlite3"], "{tmp}/none.sqlite3: no journal there"),
    (["list", "--journal", "{tmp}/foreign.sqlite3"], "{tmp}/foreign.sqlite3: not a cardtable journal"),
    (["export", "--journal", "{tmp}/foreign.sqlite3", "-"], "{tmp}/foreign.sqlite3: not a cardtable journal"),
    (["export", "--game", "9", "--journal", "{journal}", "-"], "{journal}: no game 9 in the journal"),
    (["export", "--journal", "{tmp}/empty.sqlite3", "-"], "{tmp}/empty.sqlite3: no games in the journal"),
    (["export", "--journal", "{journal}", "{tmp}/missing/game.jsonl"], "cannot write {tmp}/missing/game.jsonl"),
])
def test_errors_exit_2_naming_what_is_wrong_and_write_nothing(
        journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        message: str) -> None:
    foreign(tmp_path / "foreign.sqlite3")
    Journal.open(tmp_path / "empty.sqlite3").close()
    files = written(tmp_path)
    names = {"tmp": str(tmp_path), "journal": str(journal_path)}
    status, out, err = run(capsys, *(arg.format(**names) for arg in argv))
    assert status == 2 and out == ""
    assert err.startswith(f"cardtable history {argv[0]}: {message.format(**names)}") and err.count("\n") == 1
    assert written(tmp_path) == files


@pytest.mark.parametrize("players,summary,ended,expected", [
    (4, {"scores": [121, 100], "winner": 1}, True, "P1 & P3 won 121-100"),
    (3, {"scores": [80, 121, 99], "winner": 1}, True, "P1 won 80-121-99"),
    (3, {"scores": None, "chips": [9, 13, 8], "winner": 1}, True, "P1 won chips 9 13 8"),
    (3, {"scores": None, "chips": [9, 13, 8], "winner": None}, True, "chips 9 13 8"),
    (2, None, False, "playing"),
])
def test_the_result_names_the_winning_side_and_the_scores_or_chips(
        players: int, summary: dict[str, object] | None, ended: bool, expected: str) -> None:
    header = {"game": "x", "players": [f"P{seat}" for seat in range(players)]}
    record = GameRecord(1, header, "2026-01-01T20:00:00Z", "2026-01-01T21:00:00Z" if ended else None, summary, 0)
    assert result(record) == expected
