"""A mixed evening at the table: cribbage games (2-4 players), Femkort matches (3-8) and Färbeln matches
(3-7), one after the other, as the journal would hold them — with a few events the engines refused
(misread cards, a seat that does not exist, a gesture that is no event) sprinkled in.

Used by the replay benchmark and its test; deterministic for a seed.
"""
from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from controller.cribbage.game import new_game as new_cribbage
from controller.engine import Engine, Event, IllegalEvent
from controller.femkort.game import new_game as new_femkort
from controller.ferbli.game import new_game as new_ferbli
from controller.history import Header
from controller.simulation import cribbage, femkort, ferbli
from controller.simulation.table import SimulatedTable

MATCH_LIMIT = 600  # events at most per game: the evening moves on to another table


class Journal(NamedTuple):
    header: Header
    events: list[Event]
    rejected: list[int]  # indices into `events` of those the engine refused


def _cribbage(rng: random.Random, players: int) -> tuple[Header, SimulatedTable]:
    choices: list[dict[str, Any]] = [{}, {"muggins": True}, {"target": 61}]
    options = rng.choice(choices + ([{"five_card": True}] if players == 2 else []))
    head = cribbage.header(players, rng.randrange(players), **options)
    return head, cribbage.Driver(new_cribbage(head), rng, unread=rng.choice([0.0, 0.2]))


def _femkort(rng: random.Random, players: int) -> tuple[Header, SimulatedTable]:
    options: dict[str, Any] = {"stake": rng.randint(1, 2)}
    for name in ("redeal_on_request", "best_of_three", "no_head_obligation", "stake_escalation", "trump"):
        if rng.random() < 0.25:
            options[name] = True
    options["contender_rule"] = rng.choice(["all_play", "won_a_trick"])
    if not options.get("trump"):
        options["head_semantics"] = rng.choice(["beat_current_winner", "beat_all_cards"])
    head = femkort.header(players, rng.randrange(players), [rng.randint(8, 20) for _ in range(players)], **options)
    return head, femkort.FemkortTable(new_femkort(head), rng, unread=rng.choice([0.0, 0.2]))


def _ferbli(rng: random.Random, players: int) -> tuple[Header, SimulatedTable]:
    low = rng.randint(1, 3)
    options = {"min": low, "max": low + rng.randint(2, 8), "table_stakes": rng.choice(["all_in", "must_fold"])}
    head = ferbli.header(players, rng.randrange(players), [rng.randint(15, 50) for _ in range(players)], **options)
    return head, ferbli.FerbliTable(new_ferbli(head), rng)


# (game, its table maker, the player counts it takes turns with)
TABLES: list[tuple[str, Callable[[random.Random, int], tuple[Header, SimulatedTable]], tuple[int, ...]]] = [
    ("cribbage", _cribbage, (2, 3, 4)),
    ("femkort", _femkort, tuple(range(3, 9))),
    ("ferbli", _ferbli, tuple(range(3, 8))),
]


def _misread(event: Event, players: int, rng: random.Random) -> Event:
    """An event every engine refuses whatever the state: no such event, no such seat, or no such card."""
    kinds = ["gesture"] + (["seat"] if "seat" in event else []) + (["card"] if isinstance(event.get("card"), str) else [])
    kind = rng.choice(kinds)
    if kind == "seat":
        return {**event, "seat": players}
    if kind == "card":
        return {**event, "card": rng.choice(["1X", "11S", "QQ"])}
    return {"type": "shuffle"}


def play_journal(head: Header, table: SimulatedTable, limit: int, rng: random.Random,
                 mistakes: float) -> Journal:
    """Up to `limit` journal lines of one game, a share `mistakes` of them refused events."""
    journal = Journal(head, [], [])
    engine: Engine = table.game
    while len(journal.events) < limit and (move := table.choose()) is not None:
        if rng.random() < mistakes and len(journal.events) < limit - 1:
            bad = _misread(move.event, len(head.players), rng)
            try:
                engine.apply(bad)
            except IllegalEvent:
                journal.rejected.append(len(journal.events))
                journal.events.append(bad)
            else:
                raise AssertionError(f"the engine accepted a misread event {bad}")
        engine.apply(move.event)
        move.commit()
        journal.events.append(move.event)
    return journal


def evening_journal(events: int = 5000, seed: int = 0, mistakes: float = 0.03) -> list[Journal]:
    """Games in turn (cribbage, Femkort, Färbeln; each with the next player count) until `events` lines."""
    rng = random.Random(seed)
    journals: list[Journal] = []
    written, turn = 0, 0
    while written < events:
        _, make, counts = TABLES[turn % len(TABLES)]
        head, table = make(rng, counts[(turn // len(TABLES)) % len(counts)])
        journal = play_journal(head, table, min(MATCH_LIMIT, events - written), rng, mistakes)
        journals.append(journal)
        written += len(journal.events)
        turn += 1
    return journals
