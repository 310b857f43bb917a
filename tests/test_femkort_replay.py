"""`cardtable replay` on Femkort hand histories (controller/HISTORY.md): exit codes, one result per event
line numbered like the file, the specific reasons and effects, and a summary that the effects add up to."""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HISTORIES = Path(__file__).parent / "data" / "histories" / "femkort"
# the console script beside this interpreter (a virtualenv's bin, on PATH or not), else on PATH
CARDTABLE = shutil.which("cardtable", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                            os.environ.get("PATH", "")]))


@functools.cache  # one run per file: the tests below only read the output
def replay(name: str) -> tuple[int, list[dict[str, Any]], str]:
    assert CARDTABLE, "the cardtable command is not installed (pip install -e '.[dev]')"
    done = subprocess.run([CARDTABLE, "replay", str(HISTORIES / name)], capture_output=True, text=True,
                          timeout=60)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def event_line_numbers(name: str) -> list[int]:
    lines = (HISTORIES / name).read_text(encoding="utf-8").splitlines()
    content = [n for n, text in enumerate(lines, 1) if text.strip() and not text.lstrip().startswith("#")]
    return content[1:]  # after the header


def by_line(results: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {r["n"]: r for r in results if "n" in r}


def notes(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in result["effects"] if e.get("note") == kind]


GOOD = sorted(p.name for p in HISTORIES.glob("*.jsonl") if p.name not in {"bad_option.jsonl", "two_players.jsonl"})


@pytest.mark.parametrize("name", GOOD)
def test_every_event_line_gets_one_result_and_the_effects_add_up(name: str) -> None:
    code, results, stderr = replay(name)
    assert code == 0 and stderr == ""
    assert [r["n"] for r in results[:-1]] == event_line_numbers(name)
    summary = results[-1]
    assert summary["type"] == "summary" and summary["game"] == "femkort" and summary["scores"] is None
    header = json.loads((HISTORIES / name).read_text(encoding="utf-8").splitlines()[0])
    chips = list(header["chips"] or [100] * len(header["players"]))
    for result in results[:-1]:
        for effect in result.get("effects", []):
            if "chips" in effect:
                chips[effect["seat"]] += effect["chips"]
    assert chips == summary["chips"]
    start = sum(header["chips"] or [100] * len(header["players"]))
    assert sum(summary["chips"]) + summary["pot"] + summary["carry"] == start


def test_read_deal_refuses_each_illegal_card_with_its_reason() -> None:
    _, results, _ = replay("read_deal_full_hand.jsonl")
    lines = by_line(results)
    assert [e["chips"] for e in lines[3]["effects"]] == [-1, -1, -1]  # stakes on the hand's first line
    errors = {n: r["error"] for n, r in lines.items() if not r["ok"]}
    assert errors == {
        4: "not your turn: seat 1 is to play",
        6: "illegal: seat 2 must follow hearts (holds JH)",
        8: "seat 2 has already played to trick 1",
        9: "illegal: seat 0 must head the trick with a hearts card above JH (holds KH)",
        11: "card AS is not in seat 0's hand",
        12: "deal: hand 1 is being played (trick 2)",
        25: "dealer: seat 1 deals hand 2, not seat 0",
        27: "the match is over: seat 0 won it",
    }
    assert notes(lines[10], "trick") == [{"note": "trick", "trick": 1, "winner": 0, "cards": ["10H", "JH", "KH"]}]
    assert {"seat": 0, "chips": 3, "reason": "pot"} in lines[24]["effects"]
    assert notes(lines[26], "match_won") == [{"note": "match_won", "winner": 0, "cause": "time_up"}]
    assert results[-1]["chips"] == [12, 9, 9] and results[-1]["winner"] == 0 and results[-1]["hand_winner"] == 0


def test_unread_deal_reports_the_revoke_on_the_line_that_proves_it() -> None:
    _, results, _ = replay("unread_revoke.jsonl")
    lines = by_line(results)
    revoke = {"violation": "revoke", "seat": 1, "trick": 1, "hand": 1, "card": "7H", "rule": "FK-R10"}
    assert all(r["ok"] and "violation" not in json.dumps(r["effects"]) for n, r in lines.items() if n < 13 and n != 9)
    assert lines[9] == {"n": 9, "ok": False, "error": "card 5H was already played this hand (trick 1)"}
    assert revoke in lines[13]["effects"]
    assert results[-1]["violations"] == [revoke] and results[-1]["hand_over"] is False


def test_no_winner_hand_carries_the_pot_and_restakes() -> None:
    _, results, _ = replay("misdeal_restake.jsonl")
    lines = by_line(results)
    assert notes(lines[7], "no_winner")[0]["sizes"] == [1, 1, 1]
    assert lines[8]["error"] == "dealer: seat 0 deals hand 2, not seat 1"
    assert [(e["chips"], e["reason"]) for e in lines[9]["effects"]] == [(-2, "restake")] * 3
    assert {"seat": 1, "chips": 9, "reason": "pot"} in lines[25]["effects"]
    assert results[-1]["chips"] == [7, 16, 7] and results[-1]["pots_won"] == [0, 1, 0]


def test_time_up_tie_plays_a_decider() -> None:
    _, results, _ = replay("decider_time_up.jsonl")
    lines = by_line(results)
    assert lines[3]["effects"] == [{"note": "decider", "seats": [0, 2], "cause": "time_up"}]
    assert not lines[4]["ok"] and not lines[5]["ok"]
    assert [e["seat"] for e in lines[6]["effects"]] == [2, 0]  # only the tied players stake
    assert results[-1]["winner"] == 2 and results[-1]["chips"] == [9, 8, 11]


def test_redeal_and_trump_variants() -> None:
    _, results, _ = replay("redeal_and_trump.jsonl")
    lines = by_line(results)
    assert lines[7]["effects"] == [{"note": "redeal", "dealer": 0}]
    assert lines[8]["effects"] == [{"note": "trump", "card": "2S", "suit": "spades"}]  # no second stake
    assert lines[11]["error"] == "illegal: seat 0 must follow hearts (holds AH, 9H)"
    assert notes(lines[12], "trick")[0]["winner"] == 2  # the trump wins
    assert lines[13]["error"] == "redeal_request: hand 1 is being played (trick 2)"
    assert results[-1]["pot"] == 3 and results[-1]["chips"] == [99, 99, 99]


@pytest.mark.parametrize("name,fragment", [("bad_option.jsonl", "line 1: bad header: femkort: unknown option"),
                                           ("two_players.jsonl", "femkort is for 3-8 players")])
def test_a_bad_header_exits_2_naming_line_1(name: str, fragment: str) -> None:
    code, results, stderr = replay(name)
    assert code == 2 and results == [] and fragment in stderr
