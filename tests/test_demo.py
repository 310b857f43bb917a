"""`cardtable demo` is the table service at a simulated table: rendered cards read by the service's own
camera watcher (the real vision), buttons pressed on gpiozero's mock pins, the dealer's entries through
the service's console port, the journal; each game's result as the journal ended it is the simulated
table's own (its engine was told every true card), and its hand history replays to it."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller.demo import DemoSettings, DemoTable, demo_hardware
from controller.hardware.config import HardwareConfig
from controller.history import read_history
from controller.journal import JOURNAL_NAME, Journal
from controller.replay import replay

ROOT = Path(__file__).parents[1]


def replayed(path: Path) -> list[dict[str, Any]]:
    header, lines = read_history(path)
    return list(replay(header, lines))


@pytest.mark.parametrize("game, players, options, deck_check", [
    ("cribbage", 2, {"target": 61}, False),
    ("femkort", 3, {"pots_to_win": 1}, True),  # the dealer checks the deck first (a few seconds)
])
def test_a_whole_game_through_the_service_ends_as_the_simulated_table_did(
        tmp_path: Path, game: str, players: int, options: dict[str, Any], deck_check: bool) -> None:
    said: list[str] = []
    history = tmp_path / "game.jsonl"
    settings = DemoSettings(game, players, seed=5, options=options, games=1, speed=0, reads=1, port=None,
                            state=tmp_path / "state", history=history, mistakes=0.15, unreadable=0.1,
                            deck_check=deck_check)
    (result,) = DemoTable(settings, tmp_path / "state", said.append).run()
    assert result.summary["winner"] is not None
    assert result.same_result, (result.summary, result.truth)
    text = "\n".join(said)
    assert "REFUSED:" in text and "the player takes" in text  # a mistake refused, the card taken back
    assert "HOLD: an unreadable card" in text and "the dealer names the card" in text  # through the console port
    results = replayed(history)  # the journal's history of the game
    assert all(entry["ok"] for entry in results[:-1])
    for key in ("scores", "chips", "winner"):
        assert results[-1][key] == result.truth[key]
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        first, second = journal.games()  # the dealer started the next game at the console
        assert first.ended is not None and second.ended is None
        buttons = [line for line in journal.inputs(first.id) if line["type"] == "button"]
        assert buttons and any(line["type"] == "console" for line in journal.inputs(first.id))
        checked = journal.last_deck_check()
    if deck_check:  # through the console port and the service's camera, before the game; none of it in the game
        assert "the dealer checks the deck at the console" in text and "deck check passed: all 52 cards" in text
        assert checked is not None and checked[1]["passed"] and checked[1]["deck"] == "52"
    else:
        assert checked is None


def test_an_open_deal_is_read_by_the_services_deal_reader_and_ends_as_the_simulated_table_did(
        tmp_path: Path) -> None:
    said: list[str] = []
    settings = DemoSettings("femkort", 3, seed=5, options={"pots_to_win": 1}, games=1, speed=0, reads=1, port=None,
                            state=tmp_path / "state", mistakes=0.15, unreadable=0.1, deal="open", deck_check=False)
    (result,) = DemoTable(settings, tmp_path / "state", said.append).run()
    assert result.summary["winner"] is not None and result.same_result, (result.summary, result.truth)
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        first, second = journal.games()
        assert first.header["deal"] == second.header["deal"] == "open"  # the next game too
        inputs = journal.inputs(first.id)
        dealt = [line["card"] for line in inputs if line["type"] == "placed" and line["zone"] == "reader"]
        deals = [event["card"] for event in journal.events(first.id) if event["type"] == "deal"]
    assert len(dealt) >= 15 and dealt == deals  # every card dealt was read by the reader, in order


def test_six_players_play_femkort_through_the_service(tmp_path: Path) -> None:
    settings = DemoSettings("femkort", 6, seed=3, options={"pots_to_win": 1}, games=1, speed=0, reads=1, port=None,
                            state=tmp_path / "state", mistakes=0, unreadable=0, deck_check=False)
    (result,) = DemoTable(settings, tmp_path / "state", lambda text: None).run()
    assert result.summary["winner"] is not None and result.same_result, (result.summary, result.truth)
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        first = journal.games()[0]
        assert first.header["players"] == ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
        played = {event["seat"] for event in journal.events(first.id) if event["type"] == "play"}
    assert played == set(range(6))  # every seat's cards were read in its own zone


def test_seats_past_the_fourth_get_pins_of_their_own() -> None:
    assert demo_hardware(3) == HardwareConfig()  # the service's defaults
    eight = demo_hardware(8)  # HardwareConfig refuses a pin given twice
    assert eight.seats[:4] == HardwareConfig().seats and len(eight.seats) == 8


def demo_command(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_the_command_plays_narrates_and_writes_a_history_that_replays(tmp_path: Path) -> None:
    history = tmp_path / "demo.jsonl"
    child = demo_command("--game", "femkort", "--seed", "2", "--speed", "0", "--reads", "1", "--games", "1", "--no-panel",
                         "--options", '{"pots_to_win": 1}', "--history", str(history))
    out, err = child.communicate(timeout=600)
    assert child.returncode == 0, err
    assert "camera: " in out and "button NEXT" in out and "Ann plays" in out
    assert "deck check passed: all 52 cards read once" in out  # the default demo checks the deck first
    assert "the simulated table's own result: the same" in out and "stopped after 1 game(s)" in out
    summary = replayed(history)[-1]
    assert "chips: " + ", ".join(f"{name} {chips}" for name, chips in zip(("Ann", "Bo", "Cy"), summary["chips"])) in out


def test_the_command_serves_the_panel_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    state = tmp_path / "state"
    child = demo_command("--port", "0", "--pin", "1357", "--state", str(state), "--seed", "1")
    assert child.stdout is not None
    line = ""
    for line in child.stdout:
        if line.startswith("spectators: "):
            break
    assert "dealer console: http://127.0.0.1:" in line and "(PIN 1357)" in line, line
    url = line.split()[1]
    with urllib.request.urlopen(f"{url}api/state", timeout=30) as reply:
        table = json.load(reply)["table"]
    assert (table["game"], table["players"]) == ("cribbage", ["Ann", "Bo"])
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "stopped after 0 game(s)" in out
    assert not (state / (JOURNAL_NAME + "-wal")).exists()  # the journal was closed
    with Journal.open(state / JOURNAL_NAME, readonly=True) as journal:
        assert [game.id for game in journal.games()] == [1]
    again = demo_command("--game", "femkort", "--options", '{"pots_to_win": 1}', "--speed", "0", "--reads", "1",
                         "--games", "1", "--no-panel", "--state", str(state), "--seed", "2", "--no-deck-check")
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0 and "the simulated table's own result: the same" in out, err
    with Journal.open(state / JOURNAL_NAME, readonly=True) as journal:  # the cribbage game ended, not taken up
        assert [record.header["game"] for record in journal.games()] == ["cribbage", "femkort", "femkort"]


def test_the_command_refuses_a_player_count_the_game_does_not_take() -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--game", "femkort", "--players", "2"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == "cardtable demo: error: argument --players: the demo plays femkort with 3 to 8 players, not 2\n"


def test_a_panel_port_in_use_is_one_line_naming_it() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        child = demo_command("--port", str(port), "--games", "1")
        out, err = child.communicate(timeout=120)
    assert child.returncode == 2
    assert err == f"cardtable demo: error: cannot serve the panel on 127.0.0.1:{port}: Address already in use\n"
