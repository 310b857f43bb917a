"""The engine contract (controller/engine.py) held by all three engines on random simulated games.

On every step of cribbage, Femkort and Färbeln tables (cards read and unread): the game's names answer
(`game`, `players`, `dealer`, `phase`, `hand_over`, `game_over`); the simulator's next event is among
`legal_actions()` (exactly, or for events naming a hand's cards by type, seat and number of cards); a
sample of the listed events is accepted by a copy of the engine; `to_act()` names a seat that has a listed
action of its own; and a finished game lists nothing.
"""
from __future__ import annotations

import copy
import random
from enum import Enum
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cribbage.game import Phase as CribbagePhase
from controller.engine import Engine, Event, GameSetup
from controller.femkort.state import Phase as FemkortPhase
from controller.ferbli.phases import Phase as FerbliPhase
from controller.games import new_game
from controller.simulation import cribbage, femkort, ferbli
from controller.simulation.table import SimulatedTable

# Events whose card list names a hand's cards: listed with `null` for each unread card.
HAND_LISTS = {"discard": "cards", "reveal": "cards", "expose": "cards", "buy": "discard"}
NAMES_NEEDED = ("reveal", "expose")  # a `null` there stands for a card to name: not sent as listed


def cribbage_table(rng: random.Random, unread: float) -> SimulatedTable:
    players = rng.choice([2, 3, 4])
    options = rng.choice([{}, {"muggins": True}, {"target": 61}] + ([{"five_card": True}] if players == 2 else []))
    setup = cribbage.header(players, rng.randrange(players), **options)
    return cribbage.Driver(new_game(setup), rng, unread=unread, face_down=0.3)  # type: ignore[arg-type]


def femkort_table(rng: random.Random, unread: float) -> SimulatedTable:
    players = rng.randint(3, 8)
    options = {name: True for name in ("redeal_on_request", "trump", "stake_escalation") if rng.random() < 0.4}
    setup = femkort.header(players, rng.randrange(players), [rng.randint(4, 12) for _ in range(players)], **options)
    return femkort.FemkortTable(new_game(setup), rng, unread=unread)  # type: ignore[arg-type]


def ferbli_table(rng: random.Random, unread: float) -> SimulatedTable:
    players = rng.randint(3, 7)
    setup = ferbli.header(players, rng.randrange(players), [rng.randint(5, 30) for _ in range(players)],
                          table_stakes=rng.choice(["all_in", "must_fold"]))
    return ferbli.FerbliTable(new_game(setup), rng, unread=unread)  # type: ignore[arg-type]


TABLES: dict[str, Callable[[random.Random, float], SimulatedTable]] = {
    "cribbage": cribbage_table, "femkort": femkort_table, "ferbli": ferbli_table}
PHASES: dict[str, type[Enum]] = {"cribbage": CribbagePhase, "femkort": FemkortPhase, "ferbli": FerbliPhase}


def shape(event: Event) -> tuple[Any, ...]:
    """An event naming a hand's cards, by what the table decides: type, seat, option and number of cards."""
    field = HAND_LISTS[event["type"]]
    return event["type"], event.get("seat"), event.get("option"), event.get("crib", False), len(event[field])


def is_listed(event: Event, actions: list[Event]) -> bool:
    if event["type"] in HAND_LISTS:
        return shape(event) in {shape(a) for a in actions if a["type"] == event["type"]}
    return event in actions


def accepted_on_a_copy(engine: Engine, action: Event) -> bool:
    trial = copy.deepcopy(engine)
    trial.apply(action)  # raises IllegalEvent if the listed action is refused
    return True


def check_names(engine: Engine, game: str) -> None:
    assert engine.game == game
    assert isinstance(engine.phase, PHASES[game]) and isinstance(engine.phase.value, str)
    assert 0 <= engine.dealer < engine.players
    assert not engine.game_over or engine.hand_over


def check_step(engine: Engine, game: str, event: Event, rng: random.Random) -> None:
    check_names(engine, game)
    actions = engine.legal_actions()
    if "hands" not in event:  # the shorthand of a whole deal is not listed
        assert is_listed(event, actions), (event, engine.phase, actions[:12])
    seat = engine.to_act()
    if seat is not None:
        assert any(a.get("seat") == seat and a["type"] != "deal" for a in actions), (seat, engine.phase, actions)
    sendable = [a for a in actions if not (a["type"] in NAMES_NEEDED and None in a[HAND_LISTS[a["type"]]])]
    for action in rng.sample(sendable, min(2, len(sendable))):
        assert accepted_on_a_copy(engine, action)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(TABLES)), unread=st.sampled_from([0.0, 0.3, 1.0]), seed=st.integers(0, 2**32))
def test_every_engine_lists_what_it_accepts_and_whose_turn_it_is(game: str, unread: float, seed: int) -> None:
    rng = random.Random(seed)
    table = TABLES[game](rng, unread)
    engine: Engine = table.game
    for _ in range(250):
        move = table.choose()
        if move is None:
            break
        check_step(engine, game, move.event, rng)
        engine.apply(move.event)
        move.commit()
    if engine.game_over:
        assert engine.legal_actions() == [] and engine.to_act() is None


@pytest.mark.parametrize("setup, message", [
    (GameSetup("bridge", ("A", "B", "C", "D"), 0), "unknown game 'bridge'"),
    (GameSetup("ferbli", ("A", "B"), 0, chips=(5, 5)), "3 to 7 players"),
])
def test_a_bad_setup_is_refused_by_name(setup: GameSetup, message: str) -> None:
    from controller.engine import SetupError
    with pytest.raises(SetupError, match=message):
        new_game(setup)


def test_cribbage_to_act_in_every_phase() -> None:
    game = new_game(cribbage.header(2, 0))
    assert game.to_act() is None and game.phase is CribbagePhase.DEAL  # the dealer deals
    game.apply({"type": "deal", "hands": [["AS", "2S", "3S", "4S", "5S", "6S"], ["AH", "2H", "3H", "4H", "5H", "6H"]]})
    assert game.to_act() == 1  # pone discards first (any order is accepted)
    game.apply({"type": "discard", "seat": 1, "cards": ["5H", "6H"]})
    assert game.to_act() == 0
    game.apply({"type": "discard", "seat": 0, "cards": ["5S", "6S"]})
    assert game.to_act() is None and game.phase is CribbagePhase.STARTER
    game.apply({"type": "starter", "card": "KD"})
    assert game.to_act() == 1 and {"type": "go", "seat": 1} not in game.legal_actions()


def test_femkort_to_act_is_the_first_seat_still_to_answer_a_redeal() -> None:
    game = new_game(femkort.header(3, 0, redeal_on_request=True))
    game.apply({"type": "deal", "hands": [[None] * 5] * 3})
    assert game.to_act() == 1  # forehand leads
    game.apply({"type": "redeal_request", "seat": 1})
    assert game.to_act() == 2
    assert game.legal_actions() == [{"type": "redeal_answer", "seat": s, "agree": a} for s in (2, 0)
                                    for a in (True, False)]
    game.apply({"type": "redeal_answer", "seat": 0, "agree": True})
    assert game.to_act() == 2


def test_ferbli_to_act_waits_for_the_dealer_and_names_the_seat_to_decide() -> None:
    game = new_game(ferbli.header(3, 0))
    assert game.to_act() is None  # forehand may declare a mus, but the table waits for the deal
    assert {"type": "mus", "seat": 1, "amount": 1} in game.legal_actions()
    game.apply({"type": "deal", "hands": [[None, None]] * 3})
    assert game.to_act() == 1  # forehand stakes
    game.apply({"type": "stake", "seat": 1, "amount": 2})
    assert game.to_act() is None  # the second round of cards
    game.apply({"type": "deal", "hands": [[None, None]] * 3})
    assert game.to_act() == 2  # the first to answer the stake
