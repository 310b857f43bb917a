"""The engines' views: `public_view()` never names a card that is hidden at that moment, and
`dealer_view()` names every card the deal reader read — for the three games, open and closed deals.

Random legal games from controller/simulation hold the true cards. What is hidden is worked out from that
truth and the rules' moments of showing: cribbage hands and crib until their count of the show is scored,
the undealt pack (the starter until cut); Femkort hands (bar the trump turned under V5); Färbeln hands
(bar upcards, exposed cards, and the hands laid down at the showdown), the discards and the talon.
"""
from __future__ import annotations

import json
import random
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cards import Card, CardError
from controller.cribbage.game import CribbageGame
from controller.engine import Event
from controller.femkort.game import FemkortGame
from controller.ferbli.game import FerbliGame
from controller.ferbli.phases import Phase as FerbliPhase
from controller.games import new_game
from controller.simulation import cribbage, femkort, ferbli


def cards_named(view: Any) -> set[Card]:
    """Every card a JSON view names, wherever it is."""
    if isinstance(view, dict):
        return set().union(*map(cards_named, view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*map(cards_named, view)) if view else set()
    if isinstance(view, str):
        try:
            return {Card.parse(view)}
        except CardError:
            return set()
    return set()


class CribbageWatch:
    def __init__(self, rng: random.Random, unread: float) -> None:
        players = rng.choice([2, 3, 4])
        options = rng.choice([{}, {"muggins": True}] + ([{"five_card": True}] if players == 2 else []))
        self.game: CribbageGame = new_game(cribbage.header(players, rng.randrange(players), **options))  # type: ignore
        self.table = cribbage.Driver(self.game, rng, unread=unread, face_down=0.3)

    def hidden(self) -> set[Card]:
        truth, hand = self.table.truth, self.game.state.hand
        scored = set(self.game.counting_order()[:hand.shown])
        hidden = set(truth.deck)
        for seat, held in enumerate(truth.holding):
            if (seat, False) not in scored:
                hidden |= set(held)
        return hidden | (set() if (hand.dealer, True) in scored else set(truth.crib))

    def read(self) -> set[Card]:
        if self.table.pending:  # the truth holds the whole deal before its events are sent
            return set()
        return {card for held in self.table.truth.holding for card in held} - self.table.truth.unread

    def sending(self, event: Event) -> None:
        pass


class FemkortWatch:
    def __init__(self, rng: random.Random, unread: float) -> None:
        players = rng.randint(3, 6)
        options = {name: True for name in ("trump", "redeal_on_request") if rng.random() < 0.5}
        setup = femkort.header(players, rng.randrange(players), [rng.randint(4, 12) for _ in range(players)], **options)
        self.game: FemkortGame = new_game(setup)  # type: ignore[assignment]
        self.table = femkort.FemkortTable(self.game, rng, unread=unread)

    def hidden(self) -> set[Card]:
        trump = self.game.state.hand.trump_card
        return {card for held in self.table.hands for card in held} - {trump}

    def read(self) -> set[Card]:
        hand = self.game.state.hand
        if self.table.dealing or not hand.started or not any(holding.size for holding in hand.holdings):
            return set()  # the truth is dealt before its events are sent, and kept after a void or redeal
        return {card for held in self.table.hands for card in held}

    def sending(self, event: Event) -> None:
        pass


class FerbliWatch:
    def __init__(self, rng: random.Random, unread: float) -> None:
        players = rng.randint(3, 6)
        setup = ferbli.header(players, rng.randrange(players), [rng.randint(5, 30) for _ in range(players)])
        self.game: FerbliGame = new_game(setup)  # type: ignore[assignment]
        self.table = ferbli.FerbliTable(self.game, rng, unread=unread)
        self.face_up: set[Card] = set()  # dealt face up or exposed this deal

    def hidden(self) -> set[Card]:
        cards, game = self.table.cards, self.game
        laid_down = game.live if game.phase is FerbliPhase.SHOWDOWN else \
            game.shown if game.phase is FerbliPhase.HAND_OVER else []
        held = {card for seat, hand in enumerate(cards.hands) if seat not in laid_down for card in hand}
        return (held | set(cards.talon) | {card for _, card in cards.pile}) - self.face_up

    def read(self) -> set[Card]:
        if not any(self.game.book.hands):  # gathered (a match that ended on a misdeal): the truth keeps them
            return set()
        return {card for hand in self.table.cards.hands for card in hand} - self.table.cards.unread

    def sending(self, event: Event) -> None:
        """FB-R24: the cards due face up (an upcard, the fourth of "all"), one by one or in the shorthand."""
        if event["type"] in ("new_hand", "misdeal"):
            self.face_up = set()
        elif event["type"] == "deal" and "hands" in event:
            remaining = [iter(hand) for hand in event["hands"]]
            dealt = [(up, next(remaining[seat])) for seat, up in self.game.to_deal]
            self.face_up |= {Card.parse(text) for up, text in dealt if up and text}
        elif event["type"] == "deal" and event.get("up") and event.get("card"):
            self.face_up.add(Card.parse(event["card"]))
        elif event["type"] == "expose":
            self.face_up |= {Card.parse(text) for text in event["cards"]}


WATCHES: dict[str, Callable[[random.Random, float], Any]] = {
    "cribbage": CribbageWatch, "femkort": FemkortWatch, "ferbli": FerbliWatch}


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(WATCHES)), unread=st.sampled_from([0.0, 0.3, 1.0]), seed=st.integers(0, 2**32))
def test_no_hidden_card_is_in_the_public_view(game: str, unread: float, seed: int) -> None:
    watch = WATCHES[game](random.Random(seed), unread)
    for _ in range(300):
        move = watch.table.choose()
        if move is None:
            break
        watch.sending(move.event)
        watch.game.apply(move.event)
        move.commit()
        public = watch.game.public_view()
        assert json.loads(json.dumps(public)) == public  # JSON-ready
        leaked = cards_named(public) & watch.hidden()
        assert not leaked, (move.event, sorted(map(str, leaked)), public)
        dealer = watch.game.dealer_view()
        assert {k: v for k, v in dealer.items() if k in public} == public
        if unread == 0.0:  # an open deal: the dealer's view names every card read
            assert watch.read() <= cards_named(dealer), sorted(map(str, watch.read() - cards_named(dealer)))


def test_cribbage_views_show_the_play_and_each_count_of_the_show() -> None:
    game: CribbageGame = new_game(cribbage.header(2, 0))  # type: ignore[assignment]
    for event in [{"type": "deal", "hands": [["KC", "10C", "JD", "8H", "AC", "9D"], ["10H", "10S", "JC", "7D", "2H", "3H"]]},
                  {"type": "discard", "seat": 1, "cards": ["2H", "3H"]}, {"type": "discard", "seat": 0, "cards": ["AC", "9D"]},
                  {"type": "starter", "card": "4S"}, {"type": "play", "seat": 1, "card": "10H"},
                  {"type": "play", "seat": 0, "card": "KC"}]:
        game.apply(event)
    public = game.public_view()
    assert (public["count"], public["series"], public["played"], public["held"]) == (20, ["10H", "KC"], [["KC"], ["10H"]], [3, 3])
    assert public["starter"] == "4S" and public["to_act"] == 1 and public["crib_size"] == 4 and public["shows"] == []
    assert public["skunk_lines"] == {"skunk": 91, "double": 61} and public["pegs"] == [{"back": 0, "front": 0}] * 2
    assert game.dealer_view()["crib"] == {"known": ["2H", "3H", "AC", "9D"], "unread": 0}
    for event in [{"type": "play", "seat": 1, "card": "10S"}, {"type": "go", "seat": 0}, {"type": "go", "seat": 1},
                  {"type": "play", "seat": 0, "card": "10C"}, {"type": "play", "seat": 1, "card": "JC"},
                  {"type": "play", "seat": 0, "card": "JD"}, {"type": "go", "seat": 1}, {"type": "go", "seat": 0},
                  {"type": "play", "seat": 1, "card": "7D"}, {"type": "play", "seat": 0, "card": "8H"}]:
        game.apply(event)
    shows = game.public_view()["shows"]
    assert [(s["seat"], s["crib"]) for s in shows] == [(1, False), (0, False), (0, True)]
    crib = shows[2]
    assert crib["cards"] == ["2H", "3H", "AC", "9D"] and crib["total"] == sum(p["points"] for p in crib["breakdown"])
    assert {"reason": "run", "points": 4, "cards": ["AC", "2H", "3H", "4S"]} in crib["breakdown"]


def test_femkort_public_view_shows_the_trick_by_seat_and_hides_the_hands() -> None:
    game: FemkortGame = new_game(femkort.header(3, 0))  # type: ignore[assignment]
    game.apply({"type": "deal", "hands": [["2C", "3C", "4C", "5C", "6C"], ["AH", "KH", "QH", "JH", "10H"],
                                          ["2S", "3S", "4S", "5S", "6S"]]})
    game.apply({"type": "play", "seat": 1, "card": "AH"})
    game.apply({"type": "play", "seat": 2, "card": "2S"})
    public = game.public_view()
    assert public["trick"] == [{"seat": 1, "card": "AH"}, {"seat": 2, "card": "2S"}] and public["leader"] == 1
    assert public["to_act"] == 0 and public["pot"] == 3 and public["held"] == [5, 4, 4]
    assert cards_named(public) == {Card.parse("AH"), Card.parse("2S")}
    assert game.dealer_view()["hands"][0] == {"known": ["2C", "3C", "4C", "5C", "6C"], "unread": 0}


def test_ferbli_public_view_names_the_showdown_hands() -> None:
    game: FerbliGame = new_game(ferbli.header(3, 0))  # type: ignore[assignment]
    for event in [{"type": "deal", "hands": [["AS", "KS"], ["7H", "8C"], ["9D", "10D"]]},
                  {"type": "stake", "seat": 1, "amount": 2},
                  {"type": "deal", "hands": [["QS", "7C"], ["9H", "JC"], ["JD", "QD"]]}]:
        game.apply(event)
    assert game.public_view()["showdown"] == [] and cards_named(game.public_view()) == set()
    for event in [{"type": "join", "seat": 2}, {"type": "join", "seat": 0}, {"type": "show", "seat": 0}]:
        game.apply(event)
    public = game.public_view()
    assert {entry["seat"]: entry["hand"] for entry in public["showdown"]} == {
        1: "two-flush 18 in clubs", 2: "four-flush 39 in diamonds", 0: "three-flush 31 in spades"}
    assert public["hand_winner"] == 2 and public["committed"] == [2, 2, 2]
