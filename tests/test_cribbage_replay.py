"""`cardtable replay` on cribbage hand histories (tests/data/histories/cribbage/).

The generated full games are checked against what the files themselves say: every score is an effect,
each show count equals the score of the cards the history shows for that hand, the winner reached the
target and the skunk follows CR-14. The hand-written files check exact per-line results.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from controller.cards import Card
from controller.cribbage.scoring import score_show

HISTORIES = Path(__file__).parent / "data" / "histories" / "cribbage"
FULL_GAMES = ["two_player_skunk", "three_player", "four_player_partnerships", "five_card"]


def replay(path: Path) -> tuple[int, list[dict[str, Any]], str]:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def event_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip() and not text.lstrip().startswith("#"):
            lines.append((number, json.loads(text)))
    return lines[1:]  # the header


class ShownHands:
    """What one hand of a history shows about the cards: enough to score each count independently."""

    def __init__(self, players: int, hand_size: int) -> None:
        self.hand_size = hand_size
        self.dealt: dict[int, set[Card]] = defaultdict(set)
        self.crib: set[Card] = set()
        self.starter: Card | None = None

    def see(self, event: dict[str, Any]) -> None:
        cards = lambda names: {Card.parse(n) for n in names if n is not None}  # noqa: E731
        kind = event["type"]
        if kind == "deal" and "hands" in event:
            for seat, hand in enumerate(event["hands"]):
                self.dealt[seat] |= cards(hand)
        elif kind == "deal" and event.get("to") == "crib":
            self.crib |= cards([event["card"]])
        elif kind == "deal":
            self.dealt[event["seat"]] |= cards([event["card"]])
        elif kind == "discard":
            self.dealt[event["seat"]] -= cards(event["cards"])
            self.crib |= cards(event["cards"])
        elif kind in ("play", "reveal") and not event.get("crib"):
            self.dealt[event["seat"]] |= cards(event.get("cards") or [event.get("card")])
        elif kind == "reveal":
            self.crib |= cards(event["cards"])
        elif kind == "starter":
            self.starter = Card.parse(event["card"])

    def score(self, seat: int, crib: bool) -> int | None:
        """The count's true score, or None when the history never shows all its cards."""
        cards = self.crib if crib else self.dealt[seat]
        if len(cards) != (4 if crib else self.hand_size):
            return None
        return score_show(sorted(cards, key=lambda c: c.index), self.starter, crib=crib).total  # type: ignore[arg-type]


@pytest.mark.parametrize("name", FULL_GAMES)
def test_full_games_replay_consistently(name):
    path = HISTORIES / f"{name}.jsonl"
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    players = len(header["players"])
    sides = 2 if players == 4 else players
    target = header["options"].get("target", 61 if header["options"].get("five_card") else 121)
    code, results, stderr = replay(path)
    assert code == 0, stderr
    events = event_lines(path)
    *lines, summary = results
    assert [r["n"] for r in lines] == [n for n, _ in events]
    assert all(r["ok"] for r in lines), [r for r in lines if not r["ok"]][:1]

    points = [0] * sides
    hand_size = 3 if header["options"].get("five_card") else 4
    shown = ShownHands(players, hand_size)
    counted: dict[tuple[int, bool], int] = defaultdict(int)
    hands_checked = verified = 0
    for (_, event), result in zip(events, lines):
        if event["type"] == "new_hand":
            for (seat, crib), total in counted.items():
                expected = shown.score(seat, crib)
                assert expected is None or total == expected, (seat, crib)
                verified += expected is not None
            hands_checked += 1
            shown, counted = ShownHands(players, hand_size), defaultdict(int)
        shown.see(event)
        for effect in result["effects"]:
            points[effect["seat"] % sides] += effect["points"]
            if "show" in effect:
                counted[(effect["seat"], effect["show"] == "crib")] += effect["points"]
    assert hands_checked >= 3 and verified >= 2 * hands_checked
    assert points == summary["scores"]
    winner = summary["winner"]
    assert summary["scores"][winner] >= target
    losers = [s for side, s in enumerate(summary["scores"]) if side != winner]
    assert max(losers) < target
    line = 61 if target == 121 else 0
    expected_skunk = "double" if min(losers) < line else "skunk" if min(losers) < (91 if target == 121 else 31) else "none"
    assert summary["skunk"] == expected_skunk
    assert summary["chips"] is None and summary["hand_winner"] is None and summary["hand_over"] is True


def test_the_two_player_game_is_a_skunk():
    *_, summary = replay(HISTORIES / "two_player_skunk.jsonl")[1]
    assert summary["skunk"] == "skunk" and summary["match_points"] == 2
    assert 61 <= min(summary["scores"]) <= 90


def test_five_card_three_for_last_on_the_first_line():
    code, results, _ = replay(HISTORIES / "five_card.jsonl")
    header = json.loads((HISTORIES / "five_card.jsonl").read_text().splitlines()[0])
    pone = (header["dealer"] + 1) % 2
    assert code == 0
    assert {"seat": pone, "points": 3, "reason": "three_for_last"} in results[0]["effects"]
    assert not any(e.get("reason") == "three_for_last" for r in results[1:-1] for e in r["effects"])


def test_four_player_scores_are_per_partnership():
    *lines, summary = replay(HISTORIES / "four_player_partnerships.jsonl")[1]
    assert len(summary["scores"]) == 2
    assert {e["seat"] for r in lines for e in r["effects"]} == {0, 1, 2, 3}


def test_illegal_events_are_refused_with_specific_reasons():
    code, results, _ = replay(HISTORIES / "illegal.jsonl")
    assert code == 0
    errors = {r["n"]: r["error"] for r in results if not r.get("ok", True)}
    assert errors == {
        4: "seat 1 must discard exactly 2 card(s) to the crib, got 1",
        5: "card KC is not in seat 1's hand (it is in seat 0's hand)",
        6: "the same card is listed twice in 'cards'",
        9: "card 2H is already in the crib this hand",
        11: "not your turn: seat 1 is to play",
        12: "malformed play event 'card': not a card: '1Z' (unknown suit 'Z'; use S H D C)",
        16: "illegal: 10C would take the count past 31 (count is 30)",
        20: "illegal go: every card fits at count 10",
        21: "no deal now: the hand is in the play phase",
        27: "card 7D is not in seat 0's hand (it is played by seat 1)",
        29: "new_hand: the deal passes to seat 1, not seat 0",
        30: "unknown event type 'fold' for cribbage (it knows claim, deal, discard, go, new_hand, play, reveal, starter)",
    }
    # The refused lines changed nothing: the hand plays out exactly as the clean scenario does.
    assert results[-1]["scores"] == [14, 3]
    by_line = {r["n"]: r for r in results if "n" in r}
    assert [(e["reason"], e["points"]) for e in by_line[28]["effects"][:2]] == [("fifteen", 2), ("last_card", 1)]


def test_muggins_history():
    code, results, _ = replay(HISTORIES / "muggins.jsonl")
    assert code == 0
    by_line = {r["n"]: r for r in results if "n" in r}
    assert by_line[19] == {"n": 19, "ok": False, "error": "claim of 3 refused: seat 1's hand is worth 2"}
    assert [(e["seat"], e["reason"], e["points"]) for e in by_line[23]["effects"]] == [(0, "claim", 5), (1, "muggins", 3)]
    assert results[-1]["scores"] == [1 + 2 + 3 + 5, 1 + 2 + 3]


def test_a_bad_header_exits_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"format": "cardtable-history/1", "game": "cribbage", "players": ["A"] * 5,
                               "dealer": 0, "options": {}, "chips": None}) + "\n")
    code, results, stderr = replay(bad)
    assert code == 2 and results == [] and "2, 3 or 4 players" in stderr
