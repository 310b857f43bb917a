"""Property tests over random legal cribbage games (2, 3, 4 players, five-card, muggins, unread deals).

A driver holding the true cards picks among the legal actions; the engine must accept every one of them,
and between them we throw illegal events that must be refused without changing anything.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.simulation.cribbage import Driver, header
from controller.cards import Card, full_deck
from controller.cribbage.game import CribbageGame, Phase, new_game
from controller.cribbage.pegging import fits
from controller.cribbage.scoring import score_show
from controller.engine import IllegalEvent, Points

CONFIGS = [
    (2, {}), (3, {}), (4, {}), (2, {"five_card": True}), (2, {"muggins": True}),
    (2, {"target": 61}), (4, {"muggins": True}),
]


def check_cards_conserved(game: CribbageGame, driver: Driver) -> None:
    """Every card the engine knows is where the truth has it; sizes match everywhere; no card twice."""
    hand, truth = game.state.hand, driver.truth
    known: list[Card] = []
    for seat, seat_hand in enumerate(hand.seats):
        assert seat_hand.played == truth.played[seat]
        assert set(seat_hand.holding.known) <= set(truth.holding[seat])
        assert seat_hand.holding.size == len(truth.holding[seat])
        if seat_hand.pool:  # a read hand discarded face down: its unseen cards are the pool's, the rest the crib's
            assert set(truth.holding[seat]) - set(seat_hand.holding.known) <= set(seat_hand.pool)
            assert set(seat_hand.pool) <= set(truth.holding[seat]) | set(truth.crib)
        known += seat_hand.holding.known + seat_hand.played + seat_hand.pool
    assert set(hand.crib.known) <= set(truth.crib) and hand.crib.size == len(truth.crib)
    known += hand.crib.known + ([hand.starter] if hand.starter else [])
    assert len(known) == len(set(known)) and set(known) == hand.seen
    assert hand.starter == truth.starter
    if game.phase is Phase.PLAY:
        assert hand.count == sum(min(c.rank, 10) for c in hand.series) <= 31


def illegal_events(game: CribbageGame, driver: Driver, rng: random.Random) -> list[dict[str, Any]]:
    """Events that must be refused in the current state."""
    hand, truth, players = game.state.hand, driver.truth, game.players
    events: list[dict[str, Any]] = [
        {"type": "play", "seat": 0, "card": "1Z"},  # not a card of the deck
        {"type": "deal", "seat": players, "card": "5H"},  # no such seat
        {"type": "flip"},
    ]
    seen = sorted(hand.seen)
    if game.phase is not Phase.DEAL:
        events.append({"type": "deal", "seat": 0, "card": "5H"})
    if game.phase is not Phase.HAND_OVER:
        events.append({"type": "new_hand"})
    if game.phase is Phase.DEAL and seen:
        seat = (hand.dealer + 1 + sum(s.dealt for s in hand.seats)) % players
        events.append({"type": "deal", "seat": seat, "card": str(rng.choice(seen))})  # a duplicate card
    if game.phase is Phase.DISCARD:
        seat = next(s for s in range(players) if not hand.seats[s].discarded)
        cards = [str(c) for c in truth.holding[seat][: game.layout.discard + 1]]
        events.append({"type": "discard", "seat": seat, "cards": cards})  # wrong count
    if game.phase is Phase.PLAY:
        actor = game.to_act()
        assert actor is not None
        others = [s for s in range(players) if s != actor and truth.holding[s]]
        if others:  # the wrong seat
            seat = rng.choice(others)
            events.append({"type": "play", "seat": seat, "card": str(truth.holding[seat][0])})
        too_big = [c for c in truth.holding[actor] if not fits(c, hand.count)]
        if too_big:  # passing 31
            events.append({"type": "play", "seat": actor, "card": str(too_big[0])})
        if game.playable(actor) or hand.count == 0:  # a go while holding a known playable card
            events.append({"type": "go", "seat": actor})
        # A card known to be somewhere else (not a pool card: which of them went to the crib is unknown)
        elsewhere = [c for c in seen if c not in truth.holding[actor] and c not in hand.seats[actor].pool]
        if elsewhere:
            events.append({"type": "play", "seat": actor, "card": str(rng.choice(elsewhere))})
    if game.phase is Phase.SHOW and game.options.muggins:
        count = game.next_count()
        assert count is not None
        if not game.show_cards(count)[1]:
            true = score_show(driver.truth.count_cards(count), truth.starter, crib=count[1]).total  # type: ignore[arg-type]
            events.append({"type": "claim", "seat": count[0], "points": true + 1, **({"crib": True} if count[1] else {})})
    return events


def play_game(players: int, options: dict[str, Any], seed: int, unread: float) -> CribbageGame:
    rng = random.Random(seed)
    game = new_game(header(players, seed % players, **options))
    driver = Driver(game, rng, unread=unread, face_down=0.3)
    start = [0] * game.layout.sides  # every point, even five-card's three for last, is an effect
    effect_points: Counter[int] = Counter()
    counts: dict[tuple[int, bool], int] = {}
    steps = 0
    while (move := driver.choose()) is not None:
        steps += 1
        assert steps < 3000, "the game does not end"
        if rng.random() < 0.25:
            for bad in illegal_events(game, driver, rng):
                before = copy.deepcopy(game.state)
                with pytest.raises(IllegalEvent):
                    game.apply(bad)
                assert game.state == before, f"rejected {bad} changed the state"
        phase, scores_before = game.phase, list(game.state.scores)
        effects = game.apply(move.event)  # every legal action is accepted
        move.commit()
        for effect in effects:
            if isinstance(effect, Points):
                assert effect.points > 0
                effect_points[game.layout.side(effect.seat)] += effect.points
                if effect.show is not None and effect.reason != "muggins":
                    key = (effect.seat, effect.show == "crib")
                    counts[key] = counts.get(key, 0) + effect.points
        # Scores move only through effects, and never backwards.
        assert all(a <= b for a, b in zip(scores_before, game.state.scores))
        if not driver.pending:  # mid-deal, the truth already holds the whole deal
            check_cards_conserved(game, driver)
        if game.phase in (Phase.HAND_OVER,) and phase is not Phase.HAND_OVER and not options.get("muggins"):
            # The breakdown of each count sums to the true score of the true cards.
            for count in game.counting_order():
                true = score_show(driver.truth.count_cards(count), driver.truth.starter, crib=count[1]).total  # type: ignore[arg-type]
                assert counts.get(count, 0) == true, count
        if move.event["type"] == "new_hand":
            counts = {}
    summary = game.summary()
    assert [start[s] + effect_points[s] for s in range(len(start))] == summary["scores"]
    winner = summary["winner"]
    assert winner is not None and summary["scores"][winner] >= game.target
    assert all(s < game.target for side, s in enumerate(summary["scores"]) if side != winner)
    assert summary["skunk"] in ("none", "skunk", "double") and summary["hand_over"]
    assert summary["pegs"][winner]["front"] == summary["scores"][winner]
    assert all(p["back"] <= p["front"] for p in summary["pegs"])
    assert summary["violations"] == []  # a legal driver never says a false go
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1), unread=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_legal_games(config, seed, unread):
    players, options = config
    play_game(players, options, seed, unread)


@pytest.mark.parametrize("players, options", CONFIGS)
def test_every_variant_plays_to_a_winner(players, options):
    game = play_game(players, options, seed=players * 7 + len(options), unread=0.5)
    assert game.phase is Phase.GAME_OVER


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_card_known_elsewhere_is_refused_with_its_place(seed):
    rng = random.Random(seed)
    game = new_game(header(2, 0))
    deck = full_deck()
    rng.shuffle(deck)
    game.apply({"type": "deal", "hands": [[str(c) for c in deck[:6]], [None] * 6]})
    before = copy.deepcopy(game.state)
    card = rng.choice(deck[:6])
    with pytest.raises(IllegalEvent, match=f"{card} is not in seat 1's hand \\(it is in seat 0's hand\\)"):
        game.apply({"type": "discard", "seat": 1, "cards": [str(card), None]})
    assert game.state == before
