"""`cardtable replay` on Färbeln hand histories (tests/data/histories/ferbli): per-event output and summary."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main

HISTORIES = Path(__file__).parent / "data" / "histories" / "ferbli"


def replay(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    assert main(["replay", str(HISTORIES / name)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    *lines, summary = results
    return lines, summary


def event_numbers(name: str) -> list[int]:
    text = (HISTORIES / name).read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(text, start=1) if line.strip() and not line.startswith("#")][1:]


def chip_moves(lines: list[dict[str, Any]], players: int) -> list[int]:
    moved = [0] * players
    for line in lines:
        for effect in line.get("effects", []):
            if "chips" in effect:
                moved[effect["seat"]] += effect["chips"]
    return moved


def check_file(name: str, capsys: pytest.CaptureFixture[str], errors: dict[int, str]) -> tuple[list, dict]:
    """Every event line answered in order; exactly the expected lines rejected, with their reasons;
    the chip effects add up to the summary's balances, and nothing is created or lost."""
    lines, summary = replay(name, capsys)
    assert [line["n"] for line in lines] == event_numbers(name)
    assert {line["n"]: line["error"] for line in lines if not line["ok"]}.keys() == errors.keys()
    for line in lines:
        if not line["ok"]:
            assert errors[line["n"]] in line["error"]
    header = json.loads((HISTORIES / name).read_text(encoding="utf-8").splitlines()[0])
    start = header["chips"]
    assert [a + b for a, b in zip(start, chip_moves(lines, len(start)))] == summary["chips"]
    assert sum(start) == sum(summary["chips"]) + summary["pot"] + summary["carry"]
    assert summary["type"] == "summary" and summary["game"] == "ferbli"
    assert summary["scores"] is None and summary["violations"] == []
    return lines, summary


def effects_at(lines: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    return next(line["effects"] for line in lines if line["n"] == n)


def test_full_deal_every_phase(capsys: pytest.CaptureFixture[str]) -> None:
    lines, summary = check_file("full_deal.jsonl", capsys, {})
    assert effects_at(lines, 3) == [{"seat": 1, "chips": -20, "reason": "mus"}]
    showdown = effects_at(lines, 32)
    assert [e["hand"] for e in showdown[0]["showdown"]] == ["four-flush 41 in spades", "four-flush 41 in clubs"]
    assert showdown[1:] == [{"seat": 1, "chips": 111, "reason": "pot"}, {"deal_over": "showdown", "hand_winner": 1}]
    assert effects_at(lines, 39)[-1] == {"deal_over": "uncalled", "hand_winner": 2}
    assert summary == {"type": "summary", "game": "ferbli", "scores": None, "chips": [62, 173, 65], "pot": 0,
                       "carry": 0, "hand_over": True, "hand_winner": 2, "winner": None, "violations": []}


def test_unread_deal_settles_on_the_last_reveal(capsys: pytest.CaptureFixture[str]) -> None:
    lines, summary = check_file("unread_showdown.jsonl", capsys, {11: "leaves out KS"})
    assert effects_at(lines, 10) == [] and effects_at(lines, 12) == [] and effects_at(lines, 13) == []
    assert {"seat": 0, "chips": 12, "reason": "pot"} in effects_at(lines, 14)
    assert summary["chips"] == [58, 46, 46] and summary["hand_winner"] == 0


def test_illegal_events_are_rejected_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    errors = {
        3: "not your turn: only forehand (seat 0)",
        4: "the next card goes to seat 0, not seat 1",
        6: "card AS is already in seat 0's hand",
        7: "2S is not in the 32-card Färbeln deck",
        13: "no mus now",
        14: "amount 11 is outside [1, 10]",
        17: "no raise now: waiting for seat 1 to join or fold",
        18: "not your turn",
        20: "seat 1 has folded",
        22: "no bet now: waiting for efterhand (seat 2) to show or raise",
        25: "the next buyer (seat 0)",
        26: "card AH is not in seat 0's hand",
        30: "unknown event type 'play'",
    }
    lines, summary = check_file("illegal_events.jsonl", capsys, errors)
    assert effects_at(lines, 31) == [{"seat": 0, "chips": 19, "reason": "pot"},
                                     {"deal_over": "uncalled", "hand_winner": 0}]
    assert summary["chips"] == [107, 100, 93]


def test_carry_then_side_pots(capsys: pytest.CaptureFixture[str]) -> None:
    lines, summary = check_file("carry_and_side_pots.jsonl", capsys, {22: "it can only show"})
    assert {"carry": 6, "reason": "all_worthless"} in effects_at(lines, 8)
    assert effects_at(lines, 17) == [{"seat": 2, "chips": -1, "reason": "raise"}]  # all-in for his last chip
    settle = effects_at(lines, 23)
    assert settle[1:4] == [{"seat": 2, "chips": 18, "reason": "pot"}, {"seat": 0, "chips": 18, "reason": "side_pot"},
                           {"seat": 2, "chips": 6, "reason": "carry"}]
    assert (summary["chips"], summary["carry"], summary["hand_winner"]) == ([101, 83, 24], 0, 2)


def test_talon_reshuffle_with_seven_players(capsys: pytest.CaptureFixture[str]) -> None:
    lines, summary = check_file("reshuffle_seven.jsonl", capsys, {25: "8H is already in the discards"})
    assert effects_at(lines, 26) == [{"talon": "reshuffled", "cards": 3}]
    assert summary["chips"] == [18] * 6 + [32]


def test_match_over_with_two_players_left(capsys: pytest.CaptureFixture[str]) -> None:
    lines, summary = check_file("match_over.jsonl", capsys,
                                {10: "the match is over (only seats 1 and 0 can still play, Färbeln needs three"})
    assert effects_at(lines, 9)[-1] == {"match_over": True, "winner": 1, "players_left": [1, 0]}
    assert (summary["winner"], summary["chips"]) == (1, [9, 12, 0])


@pytest.mark.parametrize("header,fragment", [
    ({"options": {"min": 1}}, "needs the option(s) max"),
    ({"players": ["Ann", "Bo"], "chips": [5, 5]}, "3 to 7 players, got 2"),
    ({"chips": None}, "needs 'chips'"),
    ({"options": {"min": 1, "max": 5, "table_stakes": "rebuy"}}, "table_stakes must be one of"),
])
def test_bad_header_exit_2(header: dict, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = {"format": "cardtable-history/1", "game": "ferbli", "players": ["Ann", "Bo", "Cy"], "dealer": 0,
            "options": {"min": 1, "max": 5}, "chips": [10, 10, 10]}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({**base, **header}) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert fragment in capsys.readouterr().err


def test_the_installed_command() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(HISTORIES / "full_deal.jsonl")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout.splitlines()[-1])["chips"] == [62, 173, 65]
