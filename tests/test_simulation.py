"""The simulated evening (controller.simulation): the journal it writes is what `cardtable replay` accepts.

Every history is written as JSONL, read back and replayed: each accepted event must replay ok, each
sprinkled-in misread must be refused, the chip (or score) effects must add up to the summary, and chips
are neither made nor lost.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.cribbage.game import Phase as CribbagePhase, new_game as new_cribbage
from controller.femkort.game import new_game as new_femkort
from controller.femkort.state import Phase as FemkortPhase
from controller.ferbli.game import new_game as new_ferbli
from controller.history import read_history, write_history
from controller.replay import replay
from controller.simulation import cribbage, femkort, ferbli
from controller.simulation.evening import MATCH_LIMIT, Journal, evening_journal


def replayed(journal: Journal, tmp_path, name: str) -> tuple[list[dict], dict]:
    """Write the journal as a history file, read it back and replay it: (per-event results, summary)."""
    path = tmp_path / f"{name}.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        write_history(out, journal.header, journal.events)
    header, lines = read_history(path)
    assert header == journal.header and [line.event for line in lines] == journal.events
    *results, summary = replay(header, lines)
    return results, summary


def check_money(journal: Journal, results: list[dict], summary: dict) -> None:
    """Per seat, the chip effects add up to the change of balance; the table's total never changes."""
    start = journal.header.chips
    assert start is not None
    moved = [0] * len(start)
    for result in results:
        for effect in result.get("effects", []):
            if "chips" in effect:
                moved[effect["seat"]] += effect["chips"]
    assert [a + m for a, m in zip(start, moved)] == summary["chips"]
    assert sum(summary["chips"]) + summary["pot"] + summary["carry"] == sum(start)
    assert min(summary["chips"]) >= 0 and summary["pot"] >= 0 and summary["carry"] >= 0


def check_points(results: list[dict], summary: dict) -> None:
    """Cribbage: every point pegged is an effect, and they add up to each side's score."""
    sides = len(summary["scores"])
    pegged = [0] * sides
    for result in results:
        for effect in result.get("effects", []):
            if "points" in effect:
                pegged[effect["seat"] % sides] += effect["points"]
    assert pegged == summary["scores"]


@pytest.mark.parametrize("events, seed", [(5000, 1), (1800, 7), (250, 11)])
def test_the_evening_replays_event_for_event(events: int, seed: int, tmp_path) -> None:
    journals = evening_journal(events, seed)
    assert sum(len(j.events) for j in journals) == events
    assert all(0 < len(j.events) <= MATCH_LIMIT for j in journals)
    for number, journal in enumerate(journals):
        results, summary = replayed(journal, tmp_path, f"{number}_{journal.header.game}")
        assert len(results) == len(journal.events)
        refused = [index for index, result in enumerate(results) if not result["ok"]]
        assert refused == journal.rejected, [results[i] for i in refused]
        if journal.header.game == "cribbage":
            check_points(results, summary)
        else:
            check_money(journal, results, summary)


def test_a_long_evening_mixes_every_game_and_table_size() -> None:
    # Each table writes at most MATCH_LIMIT lines, so this many lines take at least 18 tables: every game
    # has then had each of its player counts (3 games x the 6 counts of Femkort).
    lines = 18 * MATCH_LIMIT
    journals = evening_journal(lines, seed=3)
    seats = {(j.header.game, len(j.header.players)) for j in journals}
    assert {n for game, n in seats if game == "cribbage"} == {2, 3, 4}
    assert {n for game, n in seats if game == "femkort"} == set(range(3, 9))
    assert {n for game, n in seats if game == "ferbli"} == set(range(3, 8))
    per_game = Counter()
    for journal in journals:
        per_game[journal.header.game] += len(journal.events)
    assert min(per_game.values()) > 500, per_game  # no game is a token presence
    refused = sum(len(j.rejected) for j in journals)
    assert 0.01 * lines < refused < 0.06 * lines
    assert evening_journal(lines, seed=3) == journals  # deterministic for a seed


@pytest.mark.parametrize("seed", range(4))
def test_each_table_plays_its_game_to_the_end(seed: int) -> None:
    """Without a cap, every simulated table brings its game to a winner (or a table nobody can play)."""
    rng = random.Random(seed)
    crib = cribbage.Driver(new_cribbage(cribbage.header(2 + seed % 3)), rng, unread=0.3)
    assert sum(1 for _ in crib.events(20000)) < 20000 and crib.game.phase is CribbagePhase.GAME_OVER
    fem = femkort.FemkortTable(new_femkort(femkort.header(3 + seed, trump=bool(seed % 2), redeal_on_request=True)),
                               rng, unread=0.3)
    assert sum(1 for _ in fem.events(20000)) < 20000 and fem.game.phase is FemkortPhase.MATCH_OVER
    assert fem.game.summary()["winner"] is not None
    fb = ferbli.FerbliTable(new_ferbli(ferbli.header(3 + seed, chips=[12] * (3 + seed))), rng)
    assert sum(1 for _ in fb.events(20000)) < 20000 and fb.game.match_over
