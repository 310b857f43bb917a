"""Property tests over random complete Färbeln matches (3..7 players).

A physical table (a shuffled 32-card deck, the talon, the discards, what each seat really holds) deals
the cards, some of them unread; the players pick among the engine's legal actions; random events are
thrown in as well. Checked after every event: no crash, chips conserved, the pot is what the deal's
players paid, FB-R31 between rounds, every accepted random event was among the legal actions, every
rejected one left the engine unchanged, and every showdown pot went to the best hand.

Open deals (every card read) are played twice: with the discards named, and as the camera sees a buy (one
null per card going face down); the second engine's pooled hands are laid down at the showdown. Both must
show spectators the same at every step and end with the same chips.
"""
from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cards import Card
from controller.engine import ChipMove, Effect, Event, IllegalEvent, Showdown
from controller.ferbli.game import FerbliGame
from controller.ferbli.hands import evaluate
from controller.ferbli.phases import Phase
from controller.simulation.ferbli import FerbliTable
from ferbli_support import table

BETWEEN_ROUNDS = (Phase.OPENING_STAKE, Phase.FIRST_DECISION, Phase.EXPOSE, Phase.BUYING, Phase.DECISION,
                  Phase.LAST_JOINER, Phase.SHOWDOWN)


def random_event(game: FerbliGame, rng: random.Random) -> Event:
    """An event that is often illegal: any type, seat and amount, but never one that moves real cards."""
    kind = rng.choice(["mus", "stake", "join", "fold", "expose_demand", "show", "raise", "bet", "new_hand", "buy"])
    event: Event = {"type": kind, "seat": rng.randint(-1, game.players)}
    if kind in ("mus", "stake", "raise", "bet"):
        event["amount"] = rng.randint(-1, game.options.max + 3)
    if kind == "buy":
        event.update(option=rng.choice(["stand", "upcard", "swap"]), discard=[])
    if kind == "new_hand":
        del event["seat"]
    return event


def check_invariants(game: FerbliGame, total: int) -> None:
    assert game.chips.total == total
    assert min(game.chips.balances) >= 0 and game.chips.pot >= 0 and game.chips.carry >= 0
    if game.phase is not Phase.HAND_OVER:
        assert game.chips.pot == sum(game.committed)
    if game.phase in BETWEEN_ROUNDS:  # FB-R31
        for seat in game.live:
            if game.balance(seat) > 0:
                assert game.committed[seat] == game.level, (seat, game.committed, game.level)
            assert game.committed[seat] <= game.level


def check_showdown(game: FerbliGame, effects: list[Effect]) -> None:
    """The main pot goes to the best shown hand, nearest the dealer's left on a tie; all worthless: carry."""
    shown = next((e.hands for e in effects if isinstance(e, Showdown)), None)
    if shown is None:
        return
    values = [(evaluate(Card.parse(c) for c in hand.cards), hand.seat) for hand in shown]
    best = max(value for value, _ in values)
    first_best = next(seat for value, seat in values if value == best)
    main = [e.seat for e in effects if isinstance(e, ChipMove) and e.reason == "pot"]
    assert main == ([] if best.worthless else [first_best])


def step(table: FerbliTable, total: int) -> bool:
    game, rng = table.game, table.rng
    actions = game.legal_actions()
    if not actions:
        return False
    if rng.random() < 0.3:
        event = random_event(game, rng)
        before = copy.deepcopy(game)
        try:
            effects = game.apply(event)
        except IllegalEvent:
            assert game == before, event
            return True
        assert event in actions, (event, actions)
        table.follow()
    else:
        _, effects = table.step()
    check_invariants(game, total)
    check_showdown(game, effects)
    return True


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), data=st.data())
def test_random_matches_keep_every_invariant(players: int, data: st.DataObject) -> None:
    low = data.draw(st.integers(1, 4), label="min")
    options = {"min": low, "max": data.draw(st.integers(low, low + 8), label="max"),
               "table_stakes": data.draw(st.sampled_from(["all_in", "must_fold"]), label="table_stakes"),
               "mus_min": data.draw(st.integers(1, 3), label="mus_min"),
               "efterhand_buys": data.draw(st.booleans(), label="efterhand_buys")}
    chips = data.draw(st.lists(st.integers(0, 60), min_size=players, max_size=players)
                      .filter(lambda c: sum(b >= options["min"] for b in c) >= 3), label="chips")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    game = table(players, chips, dealer, **options)
    sim = FerbliTable(game, random.Random(data.draw(st.integers(0, 2**32), label="seed")))
    total = game.chips.total
    for _ in range(300):
        if not step(sim, total):
            break
    assert game.summary()["chips"] == game.chips.balances


def counted(event: Event) -> Event:
    """A buy as the camera sees it: one null per card going face down into the centre."""
    return {**event, "discard": [None] * len(event["discard"])} if event["type"] == "buy" else event


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32), chips=st.integers(8, 40))
def test_open_matches_with_unnamed_discards_end_as_with_named_ones(players: int, seed: int, chips: int) -> None:
    named, unnamed = table(players, chips), table(players, chips)
    sim = FerbliTable(named, random.Random(seed), unread=0.0, misdeal=0.0)
    for event, _ in sim.events(limit=800):
        unnamed.apply(counted(event))
        while unnamed.phase is Phase.SHOWDOWN:  # the named engine knew every hand and settled at once
            seat = unnamed.to_act()
            assert seat is not None and named.phase is Phase.HAND_OVER
            unnamed.apply({"type": "reveal", "seat": seat, "cards": [str(c) for c in named.book.hands[seat]]})
        assert unnamed.public_view() == named.public_view(), event
        check_truth_among_candidates(unnamed, named)
    assert unnamed.summary() == named.summary()


def check_truth_among_candidates(unnamed: FerbliGame, named: FerbliGame) -> None:
    """Each hand's read cards are really there, and its unread ones are among its pool."""
    for seat, hand in enumerate(unnamed.book.hands):
        truth = named.book.hands[seat]
        assert len(hand) == len(truth) and all(card in truth for card in hand if card is not None)
        if seat in unnamed.book.pools:
            assert {card for card in truth if card not in hand} <= set(unnamed.book.pools[seat])
        else:
            assert None not in hand
