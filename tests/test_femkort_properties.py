"""Random complete Femkort matches for 3..8 players against a small reference model written from
controller/femkort/RULES.md: no crash, chips conserved, an event is accepted exactly when the reference says it is
legal, a rejected event changes nothing, and (unread deals) revokes are reported exactly when proven."""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import Card, Suit, full_deck
from controller.engine import IllegalEvent, Violation, effects_json
from controller.femkort import FemkortGame, new_game
from controller.femkort.hand import dealt_count
from controller.femkort.state import Phase
from controller.history import Header
from controller.simulation.femkort import FemkortTable
from controller.simulation.table import Move


def value(card: Card) -> int:
    return 14 if card.rank == 1 else card.rank


@dataclass
class RefHand:
    """One hand as the rules describe it, with every card known."""

    players: int
    seats: list[int]  # clockwise from forehand
    hands: dict[int, list[Card]]
    trump: Suit | None
    opts: dict[str, Any]
    leader: int = -1
    trick: list[tuple[int, Card]] = field(default_factory=list)
    number: int = 1
    won: dict[int, int] = field(default_factory=dict)
    participants: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.leader, self.participants = self.seats[0], list(self.seats)
        self.won = {s: 0 for s in self.seats}

    def to_act(self) -> int:
        order = sorted(self.participants, key=lambda s: (s - self.leader) % self.players)
        return order[len(self.trick)]

    def winning(self, cards: list[Card]) -> Card:
        trumps = [c for c in cards if c.suit == self.trump]
        return max(trumps or [c for c in cards if c.suit == cards[0].suit], key=value)

    def must_beat(self, cards: list[Card]) -> int | None:
        """The value a led card must exceed to head, if heading is possible and compulsory."""
        if self.opts.get("no_head_obligation"):
            return None
        if self.opts.get("head_semantics") == "beat_all_cards":
            return max(map(value, cards))
        best = self.winning(cards)
        return value(best) if best.suit == cards[0].suit else None

    def legal(self, seat: int, card: Card) -> bool:
        hand = self.hands.get(seat, [])
        if seat not in self.participants or seat != self.to_act() or card not in hand:
            return False
        if not self.trick:
            return True
        cards = [c for _, c in self.trick]
        led = [c for c in hand if c.suit == cards[0].suit]
        if not led:
            return True
        if card.suit != cards[0].suit:
            return False
        bar = self.must_beat(cards)
        return bar is None or value(card) > bar or not any(value(c) > bar for c in led)

    def play(self, seat: int, card: Card) -> int | None:
        """Play a legal card; the hand's winner when the hand is decided."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.participants):
            return None
        best = self.winning([c for _, c in self.trick])
        self.leader = next(s for s, c in self.trick if c == best)
        self.won[self.leader] += 1
        self.trick, self.number = [], self.number + 1
        if self.number == 6:
            return self.leader
        if self.number == 5 and self.opts.get("contender_rule") == "won_a_trick":
            self.participants = [s for s in self.seats if self.won[s]]
            if len(self.participants) == 1:
                return self.participants[0]
        return None


class Driver:
    """Feeds a random match to the engine: the legal moves of a simulated table, with mistakes thrown in,
    every event checked against the reference."""

    def __init__(self, players: int, opts: dict[str, Any], rnd: random.Random) -> None:
        self.rnd, self.opts = rnd, opts
        header = Header("femkort", tuple(f"P{i}" for i in range(players)), rnd.randrange(players), opts,
                        tuple(rnd.randint(opts.get("stake", 1), 12) for _ in range(players)))
        self.game: FemkortGame = new_game(header)
        self.table = FemkortTable(self.game, rnd, misdeal=0.06, time_up=0.04, new_hand=0.15)
        self.total = self.game.state.chips.total
        self.ref: RefHand | None = None

    @property
    def players(self) -> int:
        return self.game.state.players

    def send(self, move: Move, expected: bool | None) -> bool:
        before = copy.deepcopy(self.game.state)
        try:
            effects = self.game.apply(move.event)
        except IllegalEvent as error:
            assert self.game.state == before, move.event
            assert expected is not True, f"{move.event} refused: {error}"
            return False
        assert expected is not False, f"{move.event} accepted"
        move.commit()
        json.dumps(effects_json(effects))
        state = self.game.state
        assert state.chips.total == self.total and min(state.chips.balances) >= 0
        assert state.chips.pot >= 0 and state.chips.carry >= 0
        return True

    def step(self) -> None:
        roll, phase = self.rnd.random(), self.game.phase
        if roll < 0.05:
            self.junk()
        elif roll < 0.2 and self.ref is not None and phase in (Phase.DEALING, Phase.PLAYING):
            self.wrong_play()
        elif roll < 0.25 and phase is Phase.BETWEEN_HANDS:
            dealer = self.game.state.hand.dealer
            self.send(Move({"type": "new_hand", "dealer": (dealer + 1) % self.players}), False)
        elif roll < 0.25 and phase is Phase.REDEAL_VOTE:
            hand = self.game.state.hand
            seat = self.rnd.choice([hand.redeal_by, *hand.agreed])
            self.send(Move({"type": "redeal_answer", "seat": seat, "agree": True}), False)
        else:
            self.legal()

    def legal(self) -> None:
        """The table's next legal event: the reference must agree, the engine must accept it."""
        move = self.table.choose()
        assert move is not None
        if move.event["type"] == "play" and self.ref is not None:
            seat, card = move.event["seat"], Card.parse(move.event["card"])
            assert self.ref.legal(seat, card), move.event
            self.play(move, seat, card, True)
            return
        self.send(move, True)
        self.follow()

    def wrong_play(self) -> None:
        """Any seat, any card: accepted exactly when the reference says it is legal."""
        assert self.ref is not None
        seat = self.ref.to_act() if self.rnd.random() < 0.5 else self.rnd.randrange(self.players)
        hand = self.ref.hands.get(seat, [])
        card = self.rnd.choice(hand) if hand and self.rnd.random() < 0.75 else self.rnd.choice(full_deck())
        self.play(self.table.play_move(seat, card), seat, card, self.ref.legal(seat, card))

    def play(self, move: Move, seat: int, card: Card, ok: bool) -> None:
        assert self.ref is not None
        if self.send(move, ok):
            winner = self.ref.play(seat, card)
            if winner is not None:
                assert self.game.state.hand_winner == winner and self.game.hand_over
                self.ref = None
        self.follow()

    def follow(self) -> None:
        """Keep the reference in step: a fresh one once a proper deal is complete, none between deals."""
        hand = self.game.state.hand
        if not dealt_count(hand):
            self.ref = None
        elif self.ref is None and not self.table.dealing and not self.table.short \
                and self.game.phase is Phase.DEALING:
            hands = self.table.hands
            trump = hands[hand.dealer][4].suit if self.opts.get("trump") else None
            self.ref = RefHand(self.players, list(hand.seats), {s: list(hands[s]) for s in hand.seats},
                               trump, self.opts)

    def junk(self) -> None:
        phase = self.game.phase
        seat = self.rnd.randrange(self.players)
        event, expected = self.rnd.choice([
            ({"type": "shuffle"}, False),
            ({"type": "play", "seat": seat, "card": "1X"}, False),
            ({"type": "play", "seat": "0", "card": "2C"}, False),
            ({"type": "new_hand"}, None if phase is Phase.BETWEEN_HANDS else False),
            ({"type": "time_up"}, None if phase is Phase.BETWEEN_HANDS and not self.game.state.time_up else False),
            ({"type": "redeal_answer", "seat": seat, "agree": True}, None if phase is Phase.REDEAL_VOTE else False),
        ])
        if expected is False:
            self.send(Move(event), False)


OPTIONS = st.fixed_dictionaries({}, optional={
    "stake": st.integers(1, 2), "pots_to_win": st.integers(1, 3), "redeal_on_request": st.booleans(),
    "best_of_three": st.booleans(), "no_head_obligation": st.booleans(), "stake_escalation": st.booleans(),
    "trump": st.booleans(), "contender_rule": st.sampled_from(["all_play", "won_a_trick"]),
    "head_semantics": st.sampled_from(["beat_current_winner", "beat_all_cards"]),
}).filter(lambda o: not (o.get("trump") and o.get("head_semantics") == "beat_all_cards"))


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 8), opts=OPTIONS, seed=st.integers(0, 2**32))
def test_random_matches_follow_the_rules(players: int, opts: dict[str, Any], seed: int) -> None:
    driver = Driver(players, opts, random.Random(seed))
    for _ in range(1500):
        if driver.game.phase is Phase.MATCH_OVER:
            break
        driver.step()
    summary = driver.game.summary()
    json.dumps(summary)
    assert summary["scores"] is None and summary["violations"] == []  # read deals: refused, never reported
    assert sum(summary["chips"]) + summary["pot"] + summary["carry"] == driver.total
    if driver.game.phase is Phase.MATCH_OVER:
        assert summary["winner"] is not None and summary["pot"] == summary["carry"] == 0


def expected_proofs(history: list[tuple[int, list[Card], list[Card], Card]], seat: int, card: Card,
                    opts: dict[str, Any], reported: set[tuple[int, int]]) -> set[tuple[int, int, str]]:
    """From the true hands: earlier plays of `seat` that broke FK-R10/R11 and that `card` now proves."""
    found = set()
    for trick, hand, before, played in history:
        if not before or (seat, trick) in reported:
            continue
        led = [c for c in hand if c.suit == before[0].suit]
        if played.suit != before[0].suit:
            if card in led:
                found.add((seat, trick, "revoke"))
            continue
        ref = RefHand(3, [0], {}, None, opts)
        bar = ref.must_beat(before)
        if bar is not None and value(played) <= bar and card in led and value(card) > bar:
            found.add((seat, trick, "failure_to_head"))
    return found


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32),
       opts=st.fixed_dictionaries({}, optional={
           "no_head_obligation": st.booleans(), "contender_rule": st.sampled_from(["all_play", "won_a_trick"]),
           "head_semantics": st.sampled_from(["beat_current_winner", "beat_all_cards"])}))
def test_unread_hands_report_each_revoke_when_proven(players: int, seed: int, opts: dict[str, Any]) -> None:
    rnd = random.Random(seed)
    game = new_game(Header("femkort", tuple(f"P{i}" for i in range(players)), 0, opts, None))
    deck = full_deck()
    rnd.shuffle(deck)
    truth = {s: deck[5 * s:5 * s + 5] for s in range(players)}
    game.apply({"type": "deal", "hands": [[None] * 5] * players})
    ref = RefHand(players, list(game.state.hand.seats), {s: list(h) for s, h in truth.items()}, None, opts)
    history: dict[int, list[tuple[int, list[Card], list[Card], Card]]] = {s: [] for s in range(players)}
    reported: set[tuple[int, int]] = set()
    while not game.hand_over:
        seat = game.to_act()
        assert seat == ref.to_act()
        hand = ref.hands[seat]
        legal = [c for c in hand if ref.legal(seat, c)]
        card = rnd.choice(legal if rnd.random() < 0.6 else hand)
        expected = expected_proofs(history[seat], seat, card, opts, reported)
        effects = game.apply({"type": "play", "seat": seat, "card": str(card)})  # never refused: unknowable
        got = {(e.seat, e.details["trick"], e.kind) for e in effects if isinstance(e, Violation)}
        assert got == expected
        reported |= {(s, t) for s, t, _ in got}
        history[seat].append((ref.number, list(hand), [c for _, c in ref.trick], card))
        # the reference only plays legal cards; an illegal one is played "as if" it were
        ref.hands[seat].remove(card)
        ref.hands[seat].append(card)
        ref.play(seat, card)
    assert {(v["seat"], v["trick"]) for v in game.summary()["violations"]} == reported
