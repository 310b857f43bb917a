"""The cribbage engine (rules CR-1..CR-15 and the variants of controller/cribbage/RULES.md) as a pure state machine.

One engine plays one game: deal -> discard -> starter -> play -> show -> hand over (-> new_hand -> deal ...)
until a side reaches the target, wherever that happens (game over). Every event is validated completely
before anything changes, so a rejected event leaves `state` exactly as it was.

Unread cards (`"card": null`) are tracked as a count per hand; a card becomes known when it is laid,
discarded face up or revealed. A `go` is judged against the known cards (and is always illegal at a count
of 21 or less, where every card fits); when a card the player held at the time turns up later and would
have fitted, the engine reports a `false_go` violation effect.

Decisions where the rules leave room (documented in RULES.md and tested):
* The show, without muggins: each count is scored the moment its cards are all known and every count
  before it in order has been scored. The hands are known from the play, so the show is scored on the
  event that ends the play; a crib discarded unread follows on its `reveal`. A reveal of a count already
  scored is accepted without effects when it matches. With muggins each count is scored on its `claim`.
* Series points: "go" when cards remain for another series, "last_card" when the series ends the play.
* Five-card: the single series runs as CR-7 (after a go the other player lays what still fits); when it
  ends, the play ends and the cards left in hand count only in the show.
* Muggins: missed points go to `by` (an opponent) or by default to the next opponent clockwise.
* Pegs move once per announcement (one card's points, one count), so the gap shows that score.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterable, Sequence

from ..actions import card_subsets, new_hand_actions, per_card, per_subset
from ..cards import Card, full_deck
from ..engine import Effect, Event, GameSetup, IllegalEvent, Points, SetupError, Violation, effects_json, table_view, \
    violation
from ..events import event_card, event_cards, event_handler, event_hands, event_seat, event_type, optional_card, \
    parse_card_field, require_int
from ..holding import Holding
from .options import CribbageOptions, Layout, parse_cribbage_options, table_layout
from .pegging import LIMIT, fits, play_points
from .scoring import JACK, ShowScore, count_value, score_show

HEELS = 2
DECK = full_deck()
HIGHEST = 10  # the largest count value of a card (CR-2)


class Phase(Enum):
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


@dataclass
class SeatHand:
    holding: Holding = field(default_factory=Holding)
    played: list[Card] = field(default_factory=list)  # laid in the play; still the seat's hand (CR-9)
    dealt: int = 0
    discarded: bool = False
    # A read hand laid cards away face down: its unread cards are some of these, the rest went to the crib.
    pool: list[Card] = field(default_factory=list)


@dataclass
class GoClaim:
    """A go said while holding unread cards: a claim that no held card fitted under `room`."""

    seat: int
    room: int
    count: int


@dataclass
class HandState:
    dealer: int
    seats: list[SeatHand]
    crib: Holding = field(default_factory=Holding)
    seen: set[Card] = field(default_factory=set)  # every card known this hand, wherever it is
    starter: Card | None = None
    count: int = 0
    series: list[Card] = field(default_factory=list)
    last_player: int | None = None
    said_go: set[int] = field(default_factory=set)
    to_play: int | None = None
    shown: int = 0  # counts of the show already scored (index into the counting order)
    go_claims: list[GoClaim] = field(default_factory=list)

    @classmethod
    def fresh(cls, dealer: int, players: int) -> HandState:
        return cls(dealer, [SeatHand() for _ in range(players)])


@dataclass
class CribbageState:
    phase: Phase
    hand: HandState
    scores: list[int]  # per side: the front peg
    backs: list[int]  # per side: the back peg (CR-15)
    winner: int | None = None
    violations: list[Violation] = field(default_factory=list)
    pending: list[Effect] = field(default_factory=list)  # game-start effects, reported on the first event


Count = tuple[int, bool]  # (seat, is the crib): one entry of the show's counting order


class CribbageGame:
    """One game of cribbage: `apply(event) -> effects`, `summary()`, and the queries a table needs."""

    game = "cribbage"

    def __init__(self, players: int, dealer: int, options: CribbageOptions) -> None:
        self.options = options
        self.layout: Layout = table_layout(players, options)
        self.players = players
        self.target = options.game_target
        sides = self.layout.sides
        self.state = CribbageState(Phase.DEAL, HandState.fresh(dealer, players), [0] * sides, [0] * sides)
        if self.layout.start_bonus:
            # V-five-card: pone pegs "three for last" as the game starts.
            start: list[Effect] = []
            self._award(start, [Points(self._next_seat(dealer), self.layout.start_bonus, "three_for_last")])
            self.state.pending = start

    # ----- the Engine protocol -------------------------------------------------------------------

    def apply(self, event: Event) -> list[Effect]:
        handler = event_handler(_HANDLERS, event, "cribbage")
        if self.state.phase is Phase.GAME_OVER:
            raise IllegalEvent(f"the game is over: {self._result_text()}")
        effects = handler(self, event)
        if self.state.pending:
            effects[:0] = self.state.pending
            self.state.pending = []
        return effects

    def summary(self) -> dict[str, Any]:
        state = self.state
        skunk = self.skunk()
        return {
            "scores": list(state.scores), "chips": None, "pot": None, "carry": None,
            "hand_over": state.phase in (Phase.HAND_OVER, Phase.GAME_OVER), "hand_winner": None,
            "winner": state.winner, "violations": effects_json(state.violations), "skunk": skunk,
            "match_points": None if skunk is None else self.options.match_points(skunk),
            "pegs": self.pegs(),
        }

    # ----- queries -------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def pegs(self) -> list[dict[str, int]]:
        """CR-15: front and back peg per side; the gap is the last score."""
        return [{"back": b, "front": f} for b, f in zip(self.state.backs, self.state.scores)]

    def skunk(self) -> str | None:
        """CR-14 once the game is won: judged on the lowest loser (with 3 players, the worst skunk)."""
        if self.state.winner is None:
            return None
        losers = [s for side, s in enumerate(self.state.scores) if side != self.state.winner]
        return self.options.skunk(min(losers))

    @property
    def dealer(self) -> int:
        return self.state.hand.dealer

    @property
    def hand_over(self) -> bool:
        return self.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)

    @property
    def game_over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    def to_act(self) -> int | None:
        """Who must act: the first seat from the dealer's left still to discard, the seat to lay a card or
        say go, the owner of the next count of the show; None while dealing, cutting or between hands."""
        hand, phase = self.state.hand, self.state.phase
        if phase is Phase.DISCARD:
            return next(s for s in self._from_dealers_left() if not hand.seats[s].discarded)
        if phase is Phase.PLAY:
            return hand.to_play
        count = self.next_count()
        return None if count is None else count[0]

    def legal_actions(self) -> list[Event]:
        """The events accepted now (the `hands` shorthand aside; conventions in controller/actions.py)."""
        return _PHASE_ACTIONS[self.state.phase](self)

    def playable(self, seat: int) -> list[Card]:
        """The known cards of `seat` that fit under 31 now."""
        hand = self.state.hand
        return [c for c in hand.seats[seat].holding.known if fits(c, hand.count)]

    def counting_order(self) -> list[Count]:
        """CR-10 / V-three / V-four: from the dealer's left round to the dealer, then the crib."""
        return [(s, False) for s in self._from_dealers_left()] + [(self.state.hand.dealer, True)]

    def next_count(self) -> Count | None:
        order = self.counting_order()
        shown = self.state.hand.shown
        return order[shown] if self.state.phase is Phase.SHOW and shown < len(order) else None

    def show_cards(self, count: Count) -> tuple[list[Card], int]:
        """The known cards of a hand or the crib for the show, and how many are still unread."""
        seat, crib = count
        hand = self.state.hand
        if crib:
            return list(hand.crib.known), hand.crib.unknown
        held = hand.seats[seat].holding
        return hand.seats[seat].played + held.known, held.unknown

    # ----- views ---------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see now: scores, pegs, the count and its series, the cards laid, the
        starter, and each count of the show once scored, with its breakdown. No card in a hand or the crib."""
        state, hand = self.state, self.state.hand
        return {
            **table_view(self), "scores": list(state.scores), "pegs": self.pegs(), "target": self.target,
            "skunk_lines": {"skunk": self.options.skunk_below, "double": self.options.double_skunk_below},
            "winner": state.winner, "count": hand.count, "series": _texts(hand.series),
            "played": [_texts(seat.played) for seat in hand.seats],
            "held": [seat.holding.size for seat in hand.seats], "crib_size": hand.crib.size,
            "starter": None if hand.starter is None else str(hand.starter),
            "shows": [self._show_view(count) for count in self.counting_order()[:hand.shown]],
        }

    def dealer_view(self) -> dict[str, Any]:
        """The public view and every card the engine knows: the hands and the crib (read at the deal)."""
        hand = self.state.hand
        return {**self.public_view(),
                "hands": [{**seat.holding.to_json(), "among": _texts(seat.pool)} for seat in hand.seats],
                "crib": hand.crib.to_json()}

    def _show_view(self, count: Count) -> dict[str, Any]:
        cards, _ = self.show_cards(count)
        score = self._score_count(count, cards)
        return {"seat": count[0], "crib": count[1], "cards": _texts(cards), "total": score.total,
                "breakdown": [part.to_json() for part in score.parts]}

    # ----- legal actions -------------------------------------------------------------------------

    def _unseen(self) -> list[Card]:
        seen = self.state.hand.seen
        return [card for card in DECK if card not in seen]

    def _deal_actions(self) -> list[Event]:
        hand, layout = self.state.hand, self.layout
        cards = [None, *self._unseen()]
        actions: list[Event] = []
        dealt = sum(s.dealt for s in hand.seats)
        due = (hand.dealer + 1 + dealt) % self.players
        if hand.seats[due].dealt < layout.dealt:
            actions += per_card({"type": "deal", "seat": due}, cards)
        if hand.crib.size < layout.to_crib:
            actions += per_card({"type": "deal", "to": "crib"}, cards)
        return actions

    def _discard_actions(self) -> list[Event]:
        actions: list[Event] = []
        for seat in self._from_dealers_left():
            held = self.state.hand.seats[seat]
            if not held.discarded:
                # a read hand may lay its cards away face down (null), some or all of them
                unread = held.holding.unknown or self.layout.discard
                subsets = card_subsets(held.holding.known, unread, self.layout.discard)
                actions += per_subset({"type": "discard", "seat": seat}, "cards", subsets)
        return actions

    def _starter_actions(self) -> list[Event]:
        return per_card({"type": "starter"}, self._unseen())

    def _play_actions(self) -> list[Event]:
        hand = self.state.hand
        seat = hand.to_play
        assert seat is not None  # the play always has a seat to act
        seat_hand = hand.seats[seat]
        holding = seat_hand.holding
        unread = (seat_hand.pool or self._unseen()) if holding.unknown else []
        plays = per_card({"type": "play", "seat": seat}, [c for c in holding.known + unread if fits(c, hand.count)])
        return plays + ([] if self._go_refusal(seat) else [{"type": "go", "seat": seat}])

    def _show_actions(self) -> list[Event]:
        count = self.next_count()
        assert count is not None  # the show always has a count to make
        cards, unknown = self.show_cards(count)
        due = [_reveal_action(count, [*map(str, cards), *[None] * unknown])]
        if self.options.muggins and not unknown:
            total = self._score_count(count, cards).total
            claim = {"type": "claim", "seat": count[0], **({"crib": True} if count[1] else {})}
            due += [{**claim, "points": points} for points in range(total + 1)]
        return self._counted_reveals() + due

    def _hand_over_actions(self) -> list[Event]:
        return [*self._counted_reveals(), *new_hand_actions(self._next_seat(self.state.hand.dealer))]

    def _counted_reveals(self) -> list[Event]:
        """A reveal of a count already scored is accepted (without effects) when it matches."""
        order = self.counting_order()
        counted = order if self.state.phase is Phase.HAND_OVER else order[:self.state.hand.shown]
        return [_reveal_action(count, [str(c) for c in self.show_cards(count)[0]]) for count in counted]

    # ----- events --------------------------------------------------------------------------------

    def _on_deal(self, event: Event) -> list[Effect]:
        self._require_phase(Phase.DEAL, "deal")
        if "hands" in event:
            self._deal_hands(event)
        elif "to" in event:
            self._deal_to_crib(event)
        else:
            self._deal_one(event)
        hand = self.state.hand
        if sum(s.dealt for s in hand.seats) + hand.crib.size == self.layout.deal_total:
            self.state.phase = Phase.DISCARD
        return []

    def _deal_one(self, event: Event) -> None:
        hand = self.state.hand
        seat = event_seat(event, self.players)
        card = optional_card(event)
        if hand.seats[seat].dealt == self.layout.dealt:
            raise IllegalEvent(f"seat {seat} already has {self.layout.dealt} cards")
        dealt = sum(s.dealt for s in hand.seats)
        due = (hand.dealer + 1 + dealt) % self.players  # CR-4: one at a time, from the dealer's left
        if seat != due:
            raise IllegalEvent(f"deal out of order: seat {due} is due the next card")
        self._require_unseen(card)
        self._receive(hand.seats[seat].holding, card)
        hand.seats[seat].dealt += 1

    def _deal_to_crib(self, event: Event) -> None:
        hand = self.state.hand
        if event.get("to") != "crib":
            raise IllegalEvent(f"malformed deal event: 'to' must be \"crib\", got {event.get('to')!r}")
        if self.layout.to_crib == 0:
            raise IllegalEvent(f"no card is dealt straight to the crib with {self.players} players")
        if hand.crib.size >= self.layout.to_crib:
            raise IllegalEvent("the crib card has already been dealt")
        card = optional_card(event)
        self._require_unseen(card)
        self._receive(hand.crib, card)

    def _deal_hands(self, event: Event) -> None:
        hand = self.state.hand
        dealt = sum(s.dealt for s in hand.seats)
        if dealt:
            raise IllegalEvent(f"the hands shorthand must be the whole deal, but {dealt} cards were already dealt")
        hands = event_hands(event, self.players)
        named: set[Card] = set()
        for seat, cards in enumerate(hands):
            if len(cards) != self.layout.dealt:
                raise IllegalEvent(f"seat {seat} must be dealt {self.layout.dealt} cards, got {len(cards)}")
            for card in cards:
                if card in named:
                    raise IllegalEvent(f"card {card} is dealt twice")
                self._require_unseen(card)
                if card is not None:
                    named.add(card)
        for seat, cards in enumerate(hands):
            for card in cards:
                self._receive(hand.seats[seat].holding, card)
            hand.seats[seat].dealt = len(cards)

    def _on_discard(self, event: Event) -> list[Effect]:
        self._require_phase(Phase.DISCARD, "discard")
        hand = self.state.hand
        seat = event_seat(event, self.players)
        if hand.seats[seat].discarded:
            raise IllegalEvent(f"seat {seat} has already discarded")
        cards = _optional_cards(event)
        if len(cards) != self.layout.discard:
            raise IllegalEvent(f"seat {seat} must discard exactly {self.layout.discard} card(s) to the crib, "
                               f"got {len(cards)}")
        seat_hand = hand.seats[seat]
        if None in cards and not seat_hand.holding.unknown:
            self._discard_face_down(seat, cards)
        else:
            self._require_in_hand(seat, cards)
            for card in cards:
                seat_hand.holding.take(card)
                self._receive(hand.crib, card)
        seat_hand.discarded = True
        if all(s.discarded for s in hand.seats):
            self.state.phase = Phase.STARTER
        return []

    def _discard_face_down(self, seat: int, cards: list[Card | None]) -> None:
        """An open deal's discard as the camera sees it: face-down cards (`null`) from a read hand. Which
        read cards went is not known; the hand keeps them as its pool, narrowed by every card it lays."""
        seat_hand, crib = self.state.hand.seats[seat], self.state.hand.crib
        named = [card for card in cards if card is not None]
        self._require_in_hand(seat, named)
        for card in named:
            seat_hand.holding.take(card)
            self._receive(crib, card)
        seat_hand.pool = list(seat_hand.holding.known)
        seat_hand.holding = Holding([], len(seat_hand.pool) - (len(cards) - len(named)))
        for _ in range(len(cards) - len(named)):
            crib.add(None)

    def _settle_pool(self, seat: int) -> None:
        """Once the hand's cards are all seen, the pool's others are the crib's: they become known there."""
        seat_hand, crib = self.state.hand.seats[seat], self.state.hand.crib
        if not seat_hand.pool or seat_hand.holding.unknown:
            return
        for card in seat_hand.pool:
            crib.take(None)
            crib.add(card)
        seat_hand.pool = []

    def _on_starter(self, event: Event) -> list[Effect]:
        self._require_phase(Phase.STARTER, "starter")
        hand = self.state.hand
        card = event_card(event)
        self._require_unseen(card)
        hand.starter = card
        hand.seen.add(card)
        effects: list[Effect] = []
        if card.rank == JACK:  # CR-5: his heels, which may win the game on the spot
            self._award(effects, [Points(hand.dealer, HEELS, "heels", cards=(str(card),))])
            if self.state.winner is not None:
                return effects
        self.state.phase = Phase.PLAY
        hand.to_play = self._next_seat(hand.dealer)  # CR-6 / V-three / V-four: the dealer's left leads
        return effects

    def _on_play(self, event: Event) -> list[Effect]:
        seat = self._require_turn(event, "play")
        hand = self.state.hand
        card = event_card(event)
        self._require_in_hand(seat, [card])
        if not fits(card, hand.count):
            raise IllegalEvent(f"illegal: {card} would take the count past {LIMIT} (count is {hand.count})")
        effects: list[Effect] = []
        self._check_go_claims(effects, seat, [card])
        seat_hand = hand.seats[seat]
        seat_hand.holding.take(card)
        if card in seat_hand.pool:
            seat_hand.pool.remove(card)
            self._settle_pool(seat)
        seat_hand.played.append(card)
        hand.seen.add(card)
        hand.series.append(card)
        hand.count += count_value(card)
        hand.last_player = seat
        unit: list[Points] = [Points(seat, p.points, p.reason, cards=_names(p.cards), count=hand.count)
                for p in play_points(hand.series, hand.count)]
        following = None if hand.count == LIMIT else self._next_actor(seat)
        if following is None:
            unit += self._series_point()  # the card's go / last card is part of its announcement (2 + 1 = 3)
        self._award(effects, unit)
        if self.state.winner is not None:
            return effects
        if following is None:
            self._reset_series(effects)
        else:
            hand.to_play = following
        return effects

    def _on_go(self, event: Event) -> list[Effect]:
        seat = self._require_turn(event, "go")
        hand = self.state.hand
        held = hand.seats[seat].holding
        refusal = self._go_refusal(seat)
        if refusal:
            raise IllegalEvent(refusal)
        if held.unknown:
            hand.go_claims.append(GoClaim(seat, LIMIT - hand.count, hand.count))
        hand.said_go.add(seat)
        following = self._next_actor(seat)
        effects: list[Effect] = []
        if following is None:
            self._award(effects, self._series_point())
            if self.state.winner is None:
                self._reset_series(effects)
        else:
            hand.to_play = following
        return effects

    def _on_reveal(self, event: Event) -> list[Effect]:
        if self.state.phase not in (Phase.SHOW, Phase.HAND_OVER):
            raise IllegalEvent(f"no reveal now: the hand is in the {self.state.phase.value} phase")
        count = self._event_count(event)
        cards = event_cards(event)
        order = self.counting_order()
        index = order.index(count)
        known, unknown = self.show_cards(count)
        if index < self.state.hand.shown or self.state.phase is Phase.HAND_OVER:
            if set(cards) != set(known) or unknown:
                raise IllegalEvent(f"the reveal does not match {_count_name(count)}, already counted as "
                                   f"{' '.join(map(str, known))}")
            return []
        if index > self.state.hand.shown:
            raise IllegalEvent(f"out of order: {_count_name(order[self.state.hand.shown])} counts first")
        size = len(known) + unknown
        if len(cards) != size:
            raise IllegalEvent(f"{_count_name(count)} has {size} cards, the reveal lists {len(cards)}")
        missing = [c for c in known if c not in cards]
        if missing:
            raise IllegalEvent(f"the reveal leaves out {missing[0]}, known to be in {_count_name(count)}")
        new = [c for c in cards if c not in known]
        seat, crib = count
        pool = [] if crib else self.state.hand.seats[seat].pool
        for card in new:
            if card not in pool:
                self._require_unseen(card)
        if pool and any(card not in pool for card in new):
            stranger = next(card for card in new if card not in pool)
            raise IllegalEvent(f"card {stranger} is not in seat {seat}'s hand: the reader dealt it "
                               f"{' '.join(map(str, pool))} for its {unknown} unseen card(s)")
        effects: list[Effect] = []
        if not crib:
            self._check_go_claims(effects, seat, new)
        holding = self.state.hand.crib if crib else self.state.hand.seats[seat].holding
        for card in new:
            holding.take(None)
            self._receive(holding, card)
            if card in pool:
                pool.remove(card)
        if not crib:
            self._settle_pool(seat)
        self._advance_show(effects)
        return effects

    def _on_claim(self, event: Event) -> list[Effect]:
        if not self.options.muggins:
            raise IllegalEvent("claims are only made with the muggins option")
        self._require_phase(Phase.SHOW, "claim")
        count = self._claimed_count(event)
        points = require_int(event, "points")
        if points < 0:
            raise IllegalEvent(f"a claim cannot be negative, got {points}")
        expected = self.next_count()
        assert expected is not None  # the show phase always has a count to make
        if count != expected:
            raise IllegalEvent(f"out of order: {_count_name(expected)} counts now")
        cards, unknown = self.show_cards(count)
        if unknown:
            raise IllegalEvent(f"{_count_name(count)} is not known yet: reveal it before claiming")
        show = self._score_count(count, cards)
        if points > show.total:
            raise IllegalEvent(f"claim of {points} refused: {_count_name(count)} is worth {show.total}")
        taker = self._muggins_taker(event, count[0])
        effects: list[Effect] = []
        if points == show.total:
            self._award(effects, _show_effects(count, show))
        else:
            where = "crib" if count[1] else "hand"
            if points:
                self._award(effects, [Points(count[0], points, "claim", show=where)])
            if self.state.winner is None:
                missed = tuple(part.to_json() for part in show.parts)
                self._award(effects, [Points(taker, show.total - points, "muggins", show=where, owner=count[0],
                                             breakdown=missed)])
        self.state.hand.shown += 1  # counted, even when it won the game: its cards are face up
        if self.state.winner is None:
            self._advance_show(effects)
        return effects

    def _on_new_hand(self, event: Event) -> list[Effect]:
        if self.state.phase is not Phase.HAND_OVER:
            raise IllegalEvent(f"the hand is not over (it is in the {self.state.phase.value} phase)")
        dealer = self._next_seat(self.state.hand.dealer)  # CR-3: the deal passes to the left
        if "dealer" in event and require_int(event, "dealer") != dealer:
            raise IllegalEvent(f"new_hand: the deal passes to seat {dealer}, not seat {event['dealer']}")
        self.state.hand = HandState.fresh(dealer, self.players)
        self.state.phase = Phase.DEAL
        return []

    # ----- the play and the show -----------------------------------------------------------------

    def _next_actor(self, after: int) -> int | None:
        """The next seat clockwise (possibly `after` itself) still holding cards and not out on a go."""
        hand = self.state.hand
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if hand.seats[seat].holding.size and seat not in hand.said_go:
                return seat
        return None

    def _play_over(self) -> bool:
        return self.layout.single_series or not any(s.holding.size for s in self.state.hand.seats)

    def _series_point(self) -> list[Points]:
        """CR-7: nobody can lay: 1 for the go, or for the last card of the play (none after 31)."""
        hand = self.state.hand
        assert hand.last_player is not None  # a go at count 0 is refused, so every series has a card laid
        if hand.count == LIMIT:
            return []
        return [Points(hand.last_player, 1, "last_card" if self._play_over() else "go", count=hand.count)]

    def _reset_series(self, effects: list[Effect]) -> None:
        """The count resets and the seat after the last card's player leads; or the play is over."""
        hand = self.state.hand
        hand.count, hand.series, hand.said_go = 0, [], set()
        if self._play_over():
            hand.to_play = None
            self.state.phase = Phase.SHOW
            self._advance_show(effects)
        else:
            hand.to_play = self._next_actor(hand.last_player)  # type: ignore[arg-type]

    def _advance_show(self, effects: list[Effect]) -> None:
        """Score every count that is next in order and fully known (not with muggins: claims score)."""
        hand = self.state.hand
        order = self.counting_order()
        while hand.shown < len(order) and not self.options.muggins:
            count = order[hand.shown]
            cards, unknown = self.show_cards(count)
            if unknown:
                return
            self._award(effects, _show_effects(count, self._score_count(count, cards)))
            hand.shown += 1
            if self.state.winner is not None:
                return
        if hand.shown == len(order):
            self.state.phase = Phase.HAND_OVER

    def _score_count(self, count: Count, cards: list[Card]) -> ShowScore:
        starter = self.state.hand.starter
        assert starter is not None  # the show comes after the starter
        return score_show(cards, starter, crib=count[1])

    def _award(self, effects: list[Effect], unit: list[Points]) -> None:
        """Peg one announcement (one card's points, one count): CR-13 ends the game when a side gets there."""
        moved: dict[int, int] = {}
        for effect in unit:
            side = self.layout.side(effect.seat)
            moved[side] = moved.get(side, 0) + effect.points
            effects.append(effect)
        for side, points in moved.items():
            self.state.backs[side] = self.state.scores[side]  # CR-15: the back peg leapfrogs
            self.state.scores[side] += points
            if self.state.winner is None and self.state.scores[side] >= self.target:
                self.state.winner = side
                self.state.phase = Phase.GAME_OVER

    # ----- checks (no state changes) -------------------------------------------------------------

    def _require_phase(self, phase: Phase, what: str) -> None:
        if self.state.phase is phase:
            return
        if self.state.phase is Phase.HAND_OVER:
            raise IllegalEvent(f"no {what} now: the hand is over (send new_hand)")
        raise IllegalEvent(f"no {what} now: the hand is in the {self.state.phase.value} phase")

    def _require_turn(self, event: Event, what: str) -> int:
        self._require_phase(Phase.PLAY, what)
        seat = event_seat(event, self.players)
        if seat != self.state.hand.to_play:
            raise IllegalEvent(f"not your turn: seat {self.state.hand.to_play} is to play")
        return seat

    def _require_unseen(self, card: Card | None) -> None:
        if card is not None and card in self.state.hand.seen:
            raise IllegalEvent(f"card {card} is already {self._where(card)} this hand")

    def _go_refusal(self, seat: int) -> str | None:
        """Why `seat` may not say go now (judged on what is known of its hand), or None."""
        hand = self.state.hand
        if hand.count + HIGHEST <= LIMIT:  # no card is worth more than 10: every card still fits
            return f"illegal go: every card fits at count {hand.count}"
        can_lay = self.playable(seat)
        if can_lay:
            return f"illegal go: seat {seat} can lay {can_lay[0]} (count is {hand.count})"
        seat_hand = hand.seats[seat]
        fitting = [c for c in seat_hand.pool if fits(c, hand.count)]
        gone = len(seat_hand.pool) - seat_hand.holding.unknown  # pool cards that went to the crib
        if seat_hand.pool and len(fitting) > gone:
            return (f"illegal go: seat {seat} holds one of {' '.join(map(str, fitting))}, which fit "
                    f"(count is {hand.count})")
        return None

    def _require_in_hand(self, seat: int, cards: Sequence[Card | None]) -> None:
        """Each card is a known card of the seat's hand or one of its unread cards (None: unnamed); with a
        pool, an unread card is one of the pool's."""
        seat_hand = self.state.hand.seats[seat]
        held = seat_hand.holding
        from_unread = [c for c in cards if c is None or c not in held.known]
        for card in from_unread:
            if card is not None and seat_hand.pool and card not in seat_hand.pool:
                raise IllegalEvent(f"card {card} is not in seat {seat}'s hand: its {held.unknown} unseen card(s) "
                                   f"are among {' '.join(map(str, seat_hand.pool))}")
            if card is not None and not seat_hand.pool and (card in self.state.hand.seen or not held.unknown):
                where = f" (it is {self._where(card)})" if card in self.state.hand.seen else ""
                raise IllegalEvent(f"card {card} is not in seat {seat}'s hand{where}")
        if len(from_unread) > held.unknown:
            raise IllegalEvent(f"seat {seat} holds {held.unknown} unread card(s): name the cards it lays")

    def _check_go_claims(self, effects: list[Effect], seat: int, cards: list[Card]) -> None:
        """A card held since an earlier go that would have fitted proves the go false (a violation)."""
        hand = self.state.hand
        if not hand.go_claims:  # the usual case (read hands): nothing to prove
            return
        for claim in list(hand.go_claims):
            fitting = [c for c in cards if claim.seat == seat and count_value(c) <= claim.room]
            if fitting:
                hand.go_claims.remove(claim)
                false_go = violation("false_go", seat, card=str(fitting[0]), count=claim.count)
                self.state.violations.append(false_go)
                effects.append(false_go)

    def _event_count(self, event: Event) -> Count:
        seat = event_seat(event, self.players)
        crib = event.get("crib", False)
        if not isinstance(crib, bool):
            raise IllegalEvent(f"malformed {event_type(event)} event: 'crib' must be true or false")
        if crib and seat != self.state.hand.dealer:
            raise IllegalEvent(f"the crib belongs to the dealer, seat {self.state.hand.dealer}")
        return seat, crib

    def _claimed_count(self, event: Event) -> Count:
        """A claim names its count; without `crib`, the dealer's claim when the crib counts next is the crib's
        (the next count is known: take it)."""
        expected = self.next_count()
        if "crib" not in event and expected == (event_seat(event, self.players), True):
            return expected
        return self._event_count(event)

    def _muggins_taker(self, event: Event, owner: int) -> int:
        """Who pegs missed points: `by` if given (an opponent), else the next opponent clockwise."""
        if "by" in event:
            taker = require_int(event, "by")
            if not 0 <= taker < self.players:
                raise IllegalEvent(f"no seat {taker} at this table (seats 0..{self.players - 1})")
        else:
            taker = next(s for s in ((owner + i) % self.players for i in range(1, self.players))
                         if self.layout.side(s) != self.layout.side(owner))
        if self.layout.side(taker) == self.layout.side(owner):
            raise IllegalEvent(f"muggins is called by an opponent, not seat {taker}")
        return taker

    def _where(self, card: Card) -> str:
        """Where a known card is, for error messages."""
        hand = self.state.hand
        if card == hand.starter:
            return "the starter"
        if card in hand.crib.known:
            return "in the crib"
        for seat, seat_hand in enumerate(hand.seats):
            if card in seat_hand.played:
                return f"played by seat {seat}"
            if card in seat_hand.holding.known:
                return f"in seat {seat}'s hand"
        return "seen"

    # ----- small helpers -------------------------------------------------------------------------

    def _receive(self, holding: Holding, card: Card | None) -> None:
        holding.add(card)
        if card is not None:
            self.state.hand.seen.add(card)

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _from_dealers_left(self) -> list[int]:
        dealer = self.state.hand.dealer
        return [(dealer + step) % self.players for step in range(1, self.players + 1)]

    def _result_text(self) -> str:
        scores = "-".join(str(s) for s in self.state.scores)
        return f"side {self.state.winner} won ({scores})"


def _optional_cards(event: Event) -> list[Card | None]:
    """A card list in which unread (face-down) cards are null."""
    values = event.get("cards")
    if not isinstance(values, list):
        raise IllegalEvent(f"malformed {event_type(event)} event: 'cards' must be a list of cards")
    cards = [None if v is None else parse_card_field(v, f"{event_type(event)} event 'cards'") for v in values]
    named = [c for c in cards if c is not None]
    if len(set(named)) != len(named):
        raise IllegalEvent("the same card is listed twice in 'cards'")
    return cards


def _show_effects(count: Count, show: ShowScore) -> list[Points]:
    """One score effect per breakdown part (CR-12)."""
    seat, crib = count
    where = "crib" if crib else "hand"
    return [Points(seat, p.points, p.reason, cards=_names(p.cards), show=where)
            for p in show.parts]


def _names(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _reveal_action(count: Count, cards: list[str | None]) -> Event:
    return {"type": "reveal", "seat": count[0], "cards": cards, **({"crib": True} if count[1] else {})}


def _count_name(count: Count) -> str:
    seat, crib = count
    return f"seat {seat}'s crib" if crib else f"seat {seat}'s hand"


_HANDLERS: dict[str, Callable[[CribbageGame, Event], list[Effect]]] = {
    "deal": CribbageGame._on_deal,
    "discard": CribbageGame._on_discard,
    "starter": CribbageGame._on_starter,
    "play": CribbageGame._on_play,
    "go": CribbageGame._on_go,
    "reveal": CribbageGame._on_reveal,
    "claim": CribbageGame._on_claim,
    "new_hand": CribbageGame._on_new_hand,
}


_PHASE_ACTIONS: dict[Phase, Callable[[CribbageGame], list[Event]]] = {
    Phase.DEAL: CribbageGame._deal_actions,
    Phase.DISCARD: CribbageGame._discard_actions,
    Phase.STARTER: CribbageGame._starter_actions,
    Phase.PLAY: CribbageGame._play_actions,
    Phase.SHOW: CribbageGame._show_actions,
    Phase.HAND_OVER: CribbageGame._hand_over_actions,
    Phase.GAME_OVER: lambda game: [],
}


def new_game(setup: GameSetup) -> CribbageGame:
    if setup.chips is not None:
        raise SetupError("cribbage is not played for chips: 'chips' must be null")
    return CribbageGame(len(setup.players), setup.dealer, parse_cribbage_options(setup.options))
