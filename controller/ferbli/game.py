"""The Färbeln engine (rules FB-R1..FB-R40 of RULES.md) as a pure state machine over one match.

A deal runs through the phases of `Phase`; every handler validates the whole event before changing
anything, so a rejected event (IllegalEvent) leaves the engine equal to what it was. Money moves only
through `Chips.move`; the total of balances, pot and carry never changes.

Seats that cannot cover a play (no chips; below `min` with must_fold table stakes) sit the deal out, as a
player who has lost his money leaves the table; the match is over when fewer than three can play (FB-R1).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from ..actions import card_subsets, new_hand_actions, per_amount, per_card, per_subset
from ..cards import Card
from ..chips import CARRY, POT, Chips
from ..engine import Carried, DealOver, Effect, Event, GameSetup, IllegalEvent, MatchOver, Misdeal, SetupError, \
    Showdown, ShownHand, table_view
from ..events import event_cards, event_handler, event_hands, event_seat, event_type, optional_card, parse_card_field, \
    require_int
from .betting import Round, amount_range, check_amount, clockwise_after, join_payment, pot_winner, side_pots
from .deal import CardBook, event_optional_cards
from .draw import DrawError, dealer_by_draw
from .hands import evaluate
from .options import FerbliOptions, parse_ferbli_options
from .phases import BUY_DISCARDS, DEALING, DECIDING, RESPONSES, Phase

MIN_PLAYERS, MAX_PLAYERS = 3, 7  # FB-R1


@dataclass
class FerbliGame:
    game = "ferbli"  # not a field: the same for every match

    options: FerbliOptions
    chips: Chips
    dealer: int
    phase: Phase = Phase.MUS_DECISION
    order: tuple[int, ...] = ()  # this deal's seats in deal order: forehand first (FB-R12)
    live: list[int] = field(default_factory=list)  # seats still in, in deal order
    committed: list[int] = field(default_factory=list)  # paid into this deal's pot, per seat
    level: int = 0  # what every live seat that can still pay has paid after a completed round (FB-R31)
    mus: int = 0
    book: CardBook = field(default_factory=lambda: CardBook.fresh(0))
    to_deal: list[tuple[int, bool]] = field(default_factory=list)  # (seat, face up) of the cards due
    round: Round | None = None
    actor: int | None = None  # who decides now: forehand, efterhand, the decider or the last joiner
    efterhand: int | None = None
    demanded: bool = False
    exposed: list[Card | None] = field(default_factory=list)
    buyers: list[int] = field(default_factory=list)
    serving: int | None = None  # the buyer whose cards are being dealt (GAP-FB-9)
    shown: list[int] = field(default_factory=list)  # the seats that showed in the last showdown
    upcards: list[Card] = field(default_factory=list)  # the cards dealt face up this deal (FB-R24)
    hand_winner: int | None = None
    winner: int | None = None
    match_over: bool = False

    # ----------------------------------------------------------------- the Engine protocol

    def apply(self, event: Event) -> list[Effect]:
        handler = event_handler(_HANDLERS, event, "Färbeln")
        if self.match_over:
            raise IllegalEvent(f"the match is over ({self._match_result()}): no more events")
        return handler(self, event)

    def summary(self) -> dict[str, Any]:
        return {"scores": None, "chips": list(self.chips.balances), "pot": self.chips.pot,
                "carry": self.chips.carry, "hand_over": self.phase is Phase.HAND_OVER,
                "hand_winner": self.hand_winner, "winner": self.winner, "violations": []}

    # ----------------------------------------------------------------- who is who

    @property
    def players(self) -> int:
        return len(self.chips.balances)

    @property
    def forehand(self) -> int:
        return self.order[0]

    def balance(self, seat: int) -> int:
        return self.chips.balances[seat]

    def playable(self) -> list[int]:
        """Seats able to play a deal, clockwise from the dealer's left (FB-R39: no buying chips mid-deal)."""
        players, balances, reserve = self.players, self.chips.balances, self.options.reserve
        seats = [(self.dealer + step) % players for step in range(1, players + 1)]
        return [seat for seat in seats if balances[seat] >= reserve]

    def _responders(self, bettor: int) -> list[int]:
        """Who answers `bettor`: the other live seats clockwise after him, but not those already all-in.

        With must_fold (FB-R39) a seat that cannot pay still answers, and can only fold."""
        others = clockwise_after(self.live, bettor)
        return [seat for seat in others if self.balance(seat) > 0] if self.options.all_in else others

    # ----------------------------------------------------------------- deal start and end

    def _start_deal(self, dealer: int) -> list[Effect]:
        """The cards are gathered; the seats able to play are dealt in, or the match is over (FB-R1)."""
        self.dealer = dealer
        order = self.playable()
        self.phase, self.order, self.live = Phase.MUS_DECISION, tuple(order), list(order)
        self.committed, self.level, self.mus = [0] * self.players, 0, 0
        self.book = CardBook.fresh(self.players)
        self.to_deal = [(seat, False) for seat in order] * 2  # FB-R12: one at a time, twice round
        self.round, self.actor, self.efterhand, self.demanded = None, None, None, False
        self.exposed, self.buyers, self.serving, self.shown, self.upcards = [], [], None, [], []
        return self._end_match() if len(order) < MIN_PLAYERS else []

    def _end_deal(self, how: str, winner: int | None) -> list[Effect]:
        self.phase, self.hand_winner, self.round, self.actor = Phase.HAND_OVER, winner, None, None
        effects: list[Effect] = [DealOver(how, winner)]
        if len(self.playable()) < MIN_PLAYERS:
            effects += self._end_match()
        return effects

    def _end_match(self) -> list[Effect]:
        """FB-R1: fewer than three seats can play. The last one wins; of two left, the one holding more."""
        seats = self.playable()
        self.phase, self.match_over = Phase.HAND_OVER, True
        balances = [self.balance(seat) for seat in seats]
        richest = [seat for seat in seats if self.balance(seat) == max(balances, default=0)]
        self.winner = richest[0] if len(richest) == 1 else None
        return [MatchOver(self.winner, tuple(seats) if len(seats) > 1 else None)]

    def _match_result(self) -> str:
        left = self.playable()
        if len(left) > 1:
            return (f"only seats {left[0]} and {left[1]} can still play, Färbeln needs three; "
                    + ("a tie" if self.winner is None else f"seat {self.winner} won, holding more"))
        return "no seat can cover a stake" if self.winner is None else f"seat {self.winner} won"

    def _next_dealer(self) -> int:
        """FB-R5/FB-R38: the deal passes clockwise (to the next seat still able to play)."""
        return self.playable()[0]

    # ----------------------------------------------------------------- shared checks

    def _waiting(self) -> str:
        """What the table waits for, for the reason of an event in the wrong phase."""
        phase = self.phase
        if self.to_deal and phase in DEALING:
            prefix = f"forehand (seat {self.forehand}) may declare a mus, or " if phase is Phase.MUS_DECISION else ""
            return f"{prefix}the next card, to seat {self.to_deal[0][0]}"
        if phase in RESPONSES:
            assert self.round is not None
            return f"seat {self.round.queue[0]} to join or fold"
        return {
            Phase.OPENING_STAKE: f"forehand (seat {self.forehand}) to stake",
            Phase.FIRST_DECISION: f"efterhand (seat {self.actor}) to show or raise",
            Phase.EXPOSE: f"forehand (seat {self.forehand}) to lay two cards face up",
            Phase.BUYING: f"seat {self.buyers[0] if self.buyers else None} to buy",
            Phase.DECISION: f"seat {self.actor} to show or bet",
            Phase.LAST_JOINER: f"the last joiner (seat {self.actor}) to show or raise",
            Phase.SHOWDOWN: "the showdown: seat(s) " + ", ".join(str(s) for s in self._unread_live()) + " to reveal",
            Phase.HAND_OVER: "the next deal (new_hand)",
        }[phase]

    def _require_phase(self, event: Event, *phases: Phase) -> None:
        if self.phase not in phases:
            raise IllegalEvent(f"no {event_type(event)} now: waiting for {self._waiting()}")

    def _live_seat(self, event: Event) -> int:
        """The event's seat, checked: at the table, dealt into this deal, and not folded."""
        seat = event_seat(event, self.players)
        if seat not in self.order:
            raise IllegalEvent(f"seat {seat} is not in this deal (it cannot cover a stake)")
        if seat not in self.live:
            raise IllegalEvent(f"seat {seat} has folded and can take no further action")
        return seat

    def _acting_seat(self, event: Event, expected: int | None, role: str) -> int:
        """A live seat that is also the one to act (FB-R32)."""
        seat = self._live_seat(event)
        if seat != expected:
            raise IllegalEvent(f"not your turn: {role} (seat {expected}) is to act, not seat {seat}")
        return seat

    def _pay(self, seat: int, amount: int, reason: str) -> list[Effect]:
        self.committed[seat] += amount
        return self.chips.move(seat, POT, amount, reason) if amount else []

    def _bet(self, seat: int, amount: int, reason: str) -> list[Effect]:
        """A stake, bet or raise: the level rises by `amount` (the actor always stands at the level)."""
        effects = self._pay(seat, amount, reason)
        self.level = self.committed[seat]
        return effects

    # ----------------------------------------------------------------- mus, stake, answers

    def _on_mus(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.MUS_DECISION)
        seat = self._acting_seat(event, self.forehand, "only forehand")
        amount = require_int(event, "amount")
        limit = self.balance(seat) - self.options.reserve  # keep enough for the compulsory stake (FB-R14)
        if amount < self.options.mus_min:
            raise IllegalEvent(f"a mus must be at least {self.options.mus_min}, got {amount}")
        if amount > limit:
            raise IllegalEvent(f"seat {seat} holds {self.balance(seat)} chips: a mus of {amount} would not leave "
                               f"{self.options.reserve} for the opening stake (at most {max(limit, 0)})")
        self.mus, self.phase = amount, Phase.DEAL_1
        return self._bet(seat, amount, "mus")

    def _on_stake(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.OPENING_STAKE)
        seat = self._acting_seat(event, self.forehand, "only forehand")
        amount = require_int(event, "amount")
        check_amount(self.options, seat, self.balance(seat), amount)
        effects = self._bet(seat, amount, "stake")
        self.phase, self.actor = Phase.DEAL_2, None
        self.to_deal = [(s, False) for s in self.live] * 2  # FB-R15: the same manner, to those still in
        return effects

    def _on_join(self, event: Event) -> list[Effect]:
        seat = self._answering_seat(event)
        payment = join_payment(self.options, seat, self.level - self.committed[seat], self.balance(seat))
        assert self.round is not None
        self.round.queue.pop(0)
        self.round.joined.append(seat)
        return self._pay(seat, payment, self.round.reason) + self._after_answer()

    def _on_fold(self, event: Event) -> list[Effect]:
        seat = self._answering_seat(event)
        assert self.round is not None
        self.round.queue.pop(0)
        self.live.remove(seat)
        return self._after_answer()

    def _answering_seat(self, event: Event) -> int:
        self._require_phase(event, *RESPONSES)
        assert self.round is not None
        return self._acting_seat(event, self.round.queue[0], "the next to answer")

    def _after_answer(self) -> list[Effect]:
        assert self.round is not None
        return self._finish_round() if not self.round.queue else []

    def _start_round(self, phase: Phase, reason: str, bettor: int, queue: list[int]) -> list[Effect]:
        self.phase, self.actor = phase, None
        self.round = Round(reason, bettor, queue)
        return self._after_answer()

    def _finish_round(self) -> list[Effect]:
        """A response round is complete: what follows depends on the round (FB-R13, R17, R21, R28, R29)."""
        assert self.round is not None
        done, self.round = self.round, None
        if self.phase is Phase.MUS_RESPONSE:
            if not done.joined:
                return self._void_mus()
            self.phase, self.actor = Phase.OPENING_STAKE, self.forehand
            return []
        if self.live == [done.bettor]:
            return self._win_uncalled(done.bettor)
        if self.phase is Phase.OPENING_RESPONSE:
            # FB-R18: the last player who joined in this round (a seat all-in since the mus never answered)
            self.efterhand = done.joined[-1] if done.joined else self.live[-1]
            self.phase, self.actor = Phase.FIRST_DECISION, self.efterhand
            return []
        if self.phase is Phase.RAISE_RESPONSE:
            return self._start_buying()
        if done.joined:
            self.phase, self.actor = Phase.LAST_JOINER, done.joined[-1]
            return []
        return self._showdown()  # only all-in players are left to answer: nobody can raise any more

    # ----------------------------------------------------------------- efterhand, decider, last joiner

    def _on_expose_demand(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.FIRST_DECISION)
        seat = self._acting_seat(event, self.efterhand, "only efterhand")
        if self.demanded:
            raise IllegalEvent(f"efterhand (seat {seat}) has already demanded an exposure in this deal")
        self.phase, self.demanded = Phase.EXPOSE, True
        return []

    def _on_expose(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.EXPOSE)
        seat = self._acting_seat(event, self.forehand, "forehand")
        cards = event_cards(event)
        if len(cards) != 2:
            raise IllegalEvent(f"forehand lays exactly two cards face up (FB-R19), got {len(cards)}")
        self.book.learn(seat, self.book.match_held(seat, cards))  # GAP-FB-6: forehand chooses which two
        self.exposed = list(cards)
        self.phase = Phase.FIRST_DECISION
        return []

    def _on_show(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.FIRST_DECISION, Phase.DECISION, Phase.LAST_JOINER)
        self._acting_seat(event, self.actor, self._decider_role())
        return self._showdown()

    def _on_raise(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.FIRST_DECISION, Phase.LAST_JOINER)
        seat, amount, queue = self._wager(event)
        effects = self._bet(seat, amount, "raise")
        if self.phase is Phase.FIRST_DECISION:
            self.exposed = []  # FB-R19: forehand may take the exposed cards back
            return effects + self._start_round(Phase.RAISE_RESPONSE, "raise", seat, queue)
        return effects + self._start_round(Phase.BET_RESPONSE, "raise", seat, queue)

    def _on_bet(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.DECISION)
        seat, amount, queue = self._wager(event)
        return self._bet(seat, amount, "bet") + self._start_round(Phase.BET_RESPONSE, "bet", seat, queue)

    def _wager(self, event: Event) -> tuple[int, int, list[int]]:
        """Check a raise or bet: the decider's turn, the amount within bounds, somebody able to answer."""
        seat = self._acting_seat(event, self.actor, self._decider_role())
        amount = require_int(event, "amount")
        check_amount(self.options, seat, self.balance(seat), amount)
        queue = self._responders(seat)
        if not queue:
            raise IllegalEvent("nobody could answer: every other player still in is all-in; show instead")
        return seat, amount, queue

    def _decider_role(self) -> str:
        return {Phase.FIRST_DECISION: "efterhand", Phase.DECISION: "the decider",
                Phase.LAST_JOINER: "the last joiner"}[self.phase]

    # ----------------------------------------------------------------- buying (köpet)

    def _start_buying(self) -> list[Effect]:
        """FB-R22/R23: everyone still in buys once, from the dealer's left (efterhand too, GAP-FB-7)."""
        self.phase, self.actor = Phase.BUYING, None
        self.buyers = [seat for seat in self.live if self.options.efterhand_buys or seat != self.efterhand]
        return self._after_buyer()

    def _on_buy(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.BUYING)
        if self.to_deal:
            raise IllegalEvent(f"no buy now: waiting for {self._waiting()}")
        seat = self._acting_seat(event, self.buyers[0], "the next buyer")
        option = event.get("option")
        if not isinstance(option, str) or option not in BUY_DISCARDS:  # a list or object is unhashable
            choices = ", ".join(BUY_DISCARDS)
            raise IllegalEvent(f"malformed buy event: 'option' must be one of {choices}, got {option!r}")
        discards = event_optional_cards(event, "discard")
        if len(discards) not in BUY_DISCARDS[option]:
            counts = " or ".join(str(n) for n in BUY_DISCARDS[option])
            raise IllegalEvent(f"option {option} discards {counts} card(s) (FB-R24), got {len(discards)}")
        self.book.discard(seat, discards)
        self.buyers.pop(0)
        self.serving = seat
        self.to_deal = _buy_deals(seat, option, len(discards))
        return [] if self.to_deal else self._after_buyer()

    def _after_buyer(self) -> list[Effect]:
        self.serving = None
        if self.buyers:
            return []
        self.phase, self.actor = Phase.DECISION, self.live[0]  # FB-R26: the decider L
        return []

    # ----------------------------------------------------------------- cards arriving

    def _on_deal(self, event: Event) -> list[Effect]:
        if not (self.to_deal and self.phase in DEALING):
            raise IllegalEvent(f"no deal now: waiting for {self._waiting()}")
        cards = self._shorthand(event) if "hands" in event else [self._single_card(event)]
        effects = self.book.deal(cards, self.serving)
        self.upcards += [card for (_, card), (_, up) in zip(cards, self.to_deal) if up and card is not None]
        del self.to_deal[:len(cards)]
        if self.phase is Phase.MUS_DECISION:
            self.phase = Phase.DEAL_1  # dealing has begun: the mus is no longer possible (FB-R11)
        return effects + ([] if self.to_deal else self._dealt())

    def _single_card(self, event: Event) -> tuple[int, Card | None]:
        seat = event_seat(event, self.players)
        due, face_up = self.to_deal[0]
        if seat != due:
            raise IllegalEvent(f"out of turn: the next card goes to seat {due}, not seat {seat}")
        up = event.get("up", False)
        if not isinstance(up, bool):
            raise IllegalEvent(f"malformed deal event: 'up' must be true or false, got {up!r}")
        if face_up and not up:
            raise IllegalEvent(f"the card to seat {seat} is turned face up (FB-R24): deal it with \"up\": true")
        if up and not face_up:
            raise IllegalEvent(f"card to seat {seat} dealt face up where a face-down card is due: "
                               "declare a misdeal (FB-R40)")
        card = optional_card(event)
        if face_up and card is None:
            raise IllegalEvent(_UNREAD_UPCARD.format(seat=seat))
        return seat, card

    def _shorthand(self, event: Event) -> list[tuple[int, Card | None]]:
        """`hands`: exactly the cards due now, one list per seat, dealt in the order they are due."""
        hands = event_hands(event, self.players)
        due = Counter(seat for seat, _ in self.to_deal)
        if any(len(hands[seat]) != due[seat] for seat in range(self.players)):
            wanted = ", ".join(f"seat {seat}: {count}" for seat, count in due.items())
            raise IllegalEvent(f"'hands' must hold exactly the cards due now ({wanted})")
        remaining = [iter(hand) for hand in hands]
        cards = [(seat, next(remaining[seat])) for seat, _ in self.to_deal]
        unread_up = next((seat for (seat, card), (_, up) in zip(cards, self.to_deal) if up and card is None), None)
        if unread_up is not None:
            raise IllegalEvent(_UNREAD_UPCARD.format(seat=unread_up))
        return cards

    def _dealt(self) -> list[Effect]:
        """All cards due have arrived: move on from the deal round (FB-R12..R16, R24)."""
        if self.phase is Phase.DEAL_1 and self.mus:
            return self._start_round(Phase.MUS_RESPONSE, "mus", self.forehand, list(self.order[1:]))
        if self.phase is Phase.DEAL_1:
            self.phase, self.actor = Phase.OPENING_STAKE, self.forehand
            return []
        if self.phase is Phase.DEAL_2:
            return self._start_round(Phase.OPENING_RESPONSE, "stake", self.forehand, self._responders(self.forehand))
        return self._after_buyer()

    # ----------------------------------------------------------------- showdown and pots

    def _unread_live(self) -> list[int]:
        return [seat for seat in self.live if not self.book.known(seat)]

    def _showdown(self) -> list[Effect]:
        """FB-R33: everyone still in shows; settled now when every hand is known, else on the last reveal."""
        self.phase, self.actor, self.round = Phase.SHOWDOWN, None, None
        return [] if self._unread_live() else self._settle()

    def _on_reveal(self, event: Event) -> list[Effect]:
        late = self.phase is Phase.HAND_OVER and event.get("seat") in self.shown
        if not late:
            self._require_phase(event, Phase.SHOWDOWN)
        seat = event_seat(event, self.players) if late else self._live_seat(event)
        cards = event_cards(event)
        hand = self.book.hands[seat]
        if len(cards) != len(hand):
            raise IllegalEvent(f"a reveal shows all {len(hand)} of seat {seat}'s cards, got {len(cards)}")
        left_out = [str(held) for held in hand if held is not None and held not in cards]
        if left_out:
            raise IllegalEvent(f"seat {seat}'s reveal leaves out {', '.join(left_out)}, known to be in the hand")
        self.book.learn(seat, self.book.match_held(seat, cards))
        return [] if late or self._unread_live() else self._settle()

    def _settle(self) -> list[Effect]:
        """Award the main pot and any side pots (FB-R33..R35); all-worthless pots carry (FB-R37)."""
        values = {seat: evaluate(self.book.hands[seat]) for seat in self.live}  # type: ignore[arg-type]
        shown = tuple(ShownHand(seat, tuple(str(c) for c in self.book.hands[seat]), values[seat].name)
                      for seat in self.live)
        effects: list[Effect] = [Showdown(shown)]
        carried, main_winner = self.chips.carry, None
        for index, pot in enumerate(side_pots(self.committed, self.live)):
            winner = pot_winner(pot, values)
            if index == 0:
                main_winner = winner
            if winner is None:
                self.chips.move(POT, CARRY, pot.amount, "all_worthless")
                effects.append(Carried(pot.amount, "all_worthless"))
            else:
                reason = "pot" if index == 0 else "uncalled" if len(pot.eligible) == 1 else "side_pot"
                effects += self.chips.move(POT, winner, pot.amount, reason)
        if main_winner is not None and carried:
            effects += self.chips.move(CARRY, main_winner, carried, "carry")
        self.shown = list(self.live)
        return effects + self._end_deal("showdown" if main_winner is not None else "all_worthless", main_winner)

    def _win_uncalled(self, seat: int) -> list[Effect]:
        """FB-R17, R21, R28, R36: nobody answered; the bettor takes the pot (and the carry, GAP-FB-5)."""
        effects = self.chips.move(POT, seat, self.chips.pot, "pot")
        if self.chips.carry:
            effects += self.chips.move(CARRY, seat, self.chips.carry, "carry")
        return effects + self._end_deal("uncalled", seat)

    def _void_mus(self) -> list[Effect]:
        """FB-R13: nobody joined the mus; forehand takes it back, the carry stays (GAP-FB-5)."""
        return self.chips.move(POT, self.forehand, self.chips.pot, "mus_return") + self._end_deal("void_mus", None)

    # ----------------------------------------------------------------- between deals

    def _on_new_hand(self, event: Event) -> list[Effect]:
        self._require_phase(event, Phase.HAND_OVER)
        dealer = self._drawn_dealer(event) if "draw" in event else self._next_dealer()
        if "dealer" in event and require_int(event, "dealer") != dealer:
            why = "the draw" if "draw" in event else "the deal passes clockwise (FB-R5)"
            raise IllegalEvent(f"new_hand says dealer {event['dealer']}, but seat {dealer} deals: {why}")
        return self._start_deal(dealer)

    def _drawn_dealer(self, event: Event) -> int:
        """FB-R5: the seat due to deal asked for a draw; `draw` holds its rounds of cards."""
        rounds = event["draw"]
        if not isinstance(rounds, list) or not all(isinstance(r, list) and len(r) == self.players for r in rounds):
            raise IllegalEvent(f"malformed new_hand event: 'draw' must be a list of rounds of {self.players} cards")
        parsed = [[None if c is None else parse_card_field(c, "new_hand 'draw'") for c in r] for r in rounds]
        try:
            return dealer_by_draw(parsed, self.playable())
        except DrawError as error:
            raise IllegalEvent(f"bad draw: {error}") from None

    def _on_misdeal(self, event: Event) -> list[Effect]:
        """FB-R40 (GAP-FB-12): the same dealer deals again; money paid stays for the redeal's winner."""
        if self.phase is Phase.HAND_OVER:
            raise IllegalEvent("no misdeal now: the deal is over")
        effects: list[Effect] = [Misdeal()]
        if self.chips.pot:
            effects.append(Carried(self.chips.pot, "misdeal"))
            self.chips.move(POT, CARRY, self.chips.pot, "misdeal")
        return effects + self._start_deal(self.dealer)

    # ----------------------------------------------------------------- views

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see now: chips, pot, carry, who is in or folded, what each paid this deal
        and the round being answered, the cards face up (upcards, exposed cards), and at the showdown the
        hands laid down with their names. No card that lies face down."""
        round_ = self.round
        return {
            **table_view(self), "seats": list(self.order), "live": list(self.live),
            "folded": [seat for seat in self.order if seat not in self.live],
            "chips": list(self.chips.balances), "pot": self.chips.pot, "carry": self.chips.carry,
            "committed": list(self.committed), "level": self.level, "mus": self.mus,
            "round": None if round_ is None else {"reason": round_.reason, "bettor": round_.bettor,
                                                  "joined": list(round_.joined), "waiting": list(round_.queue)},
            "efterhand": self.efterhand, "buyers": list(self.buyers),
            "held": [len(hand) for hand in self.book.hands], "talon": self.book.talon, "discards": len(self.book.pile),
            "upcards": [[str(card) for card in hand if card in self.upcards] for hand in self.book.hands],
            "exposed": [str(card) for card in self.exposed if card is not None],
            "showdown": [self._shown_hand(seat) for seat in self._laid_down()],
            "hand_winner": self.hand_winner, "winner": self.winner,
        }

    def dealer_view(self) -> dict[str, Any]:
        """The public view and every card the engine knows: the hands and the discards, read or not, and
        for a hand whose discard was unnamed the read cards its unread ones are among."""
        return {**self.public_view(), "hands": [[_text(card) for card in hand] for hand in self.book.hands],
                "discard_pile": [{"seat": seat, "card": _text(card)} for seat, card in self.book.pile],
                "among": [sorted(map(str, self.book.pools.get(seat, []))) for seat in range(self.players)]}

    def _laid_down(self) -> list[int]:
        """FB-R33: at the showdown everyone still in lays his hand face up (it stays so after the deal)."""
        if self.phase is Phase.SHOWDOWN:
            return list(self.live)
        return list(self.shown) if self.phase is Phase.HAND_OVER else []

    def _shown_hand(self, seat: int) -> dict[str, Any]:
        hand = self.book.hands[seat]
        name = evaluate(hand).name if None not in hand else None  # type: ignore[arg-type]
        return {"seat": seat, "cards": [_text(card) for card in hand], "hand": name}

    # ----------------------------------------------------------------- who acts, what may happen next

    @property
    def hand_over(self) -> bool:
        return self.phase is Phase.HAND_OVER

    @property
    def game_over(self) -> bool:
        return self.match_over

    def to_act(self) -> int | None:
        """Who must decide now: the seat to answer, forehand to stake or expose, efterhand, the decider,
        the last joiner, the next buyer, the first seat still to reveal. None while cards are dealt (the
        mus is forehand's option, not a turn) and between deals."""
        if self.phase in RESPONSES:
            assert self.round is not None
            return self.round.queue[0]
        if self.phase is Phase.EXPOSE:
            return self.forehand
        if self.phase is Phase.BUYING:
            return None if self.to_deal else self.buyers[0]
        if self.phase is Phase.SHOWDOWN:
            return self._unread_live()[0]
        return self.actor if self.phase in DECIDING else None

    def legal_actions(self) -> list[Event]:
        """The events accepted now (the `hands` shorthand aside; conventions in controller/actions.py)."""
        if self.match_over:
            return []
        if self.phase is Phase.HAND_OVER:
            return [*self._late_reveals(), *new_hand_actions(self._next_dealer())]
        return [*_PHASE_ACTIONS[self.phase](self), {"type": "misdeal"}]

    def _hand_cards(self, seat: int) -> tuple[list[Card], int]:
        """The read cards of a seat's hand, and how many are unread."""
        hand = self.book.hands[seat]
        return [card for card in hand if card is not None], hand.count(None)

    def _deal_actions(self) -> list[Event]:
        if not self.to_deal:
            return []
        seat, face_up = self.to_deal[0]
        dealable = self.book.dealable(self.serving)
        return per_card({"type": "deal", "seat": seat, **({"up": True} if face_up else {})},
                        dealable if face_up else [None, *dealable])

    def _mus_actions(self) -> list[Event]:
        seat = self.forehand
        high = self.balance(seat) - self.options.reserve
        return [*self._deal_actions(), *per_amount({"type": "mus", "seat": seat}, self.options.mus_min, high)]

    def _stake_actions(self) -> list[Event]:
        bounds = amount_range(self.options, self.balance(self.forehand))
        return [] if bounds is None else per_amount({"type": "stake", "seat": self.forehand}, *bounds)

    def _answer_actions(self) -> list[Event]:
        assert self.round is not None
        seat = self.round.queue[0]
        can_join = self.options.all_in or self.balance(seat) >= self.level - self.committed[seat]
        return [{"type": "fold", "seat": seat}, *([{"type": "join", "seat": seat}] if can_join else [])]

    def _wager_actions(self, kind: str) -> list[Event]:
        assert self.actor is not None
        bounds = amount_range(self.options, self.balance(self.actor))
        able = bounds is not None and bool(self._responders(self.actor))
        wagers = per_amount({"type": kind, "seat": self.actor}, *bounds) if able and bounds else []
        return [{"type": "show", "seat": self.actor}, *wagers]

    def _first_decision_actions(self) -> list[Event]:
        demand = [] if self.demanded else [{"type": "expose_demand", "seat": self.actor}]
        return [*demand, *self._wager_actions("raise")]

    def _expose_actions(self) -> list[Event]:
        known, unread = self._hand_cards(self.forehand)
        return per_subset({"type": "expose", "seat": self.forehand}, "cards", card_subsets(known, unread, 2))

    def _buy_actions(self) -> list[Event]:
        if self.to_deal:
            return self._deal_actions()
        seat = self.buyers[0]
        known, unread = self._hand_cards(seat)
        return [action for option, counts in BUY_DISCARDS.items() for count in counts
                for action in per_subset({"type": "buy", "seat": seat, "option": option}, "discard",
                                         card_subsets(known, unread, count))]

    def _reveal_actions(self) -> list[Event]:
        return [self._reveal_action(seat) for seat in self._unread_live()]

    def _late_reveals(self) -> list[Event]:
        """A seat that showed may lay its hand again after the deal: accepted without effects."""
        return [self._reveal_action(seat) for seat in self.shown]

    def _reveal_action(self, seat: int) -> Event:
        return {"type": "reveal", "seat": seat, "cards": [None if c is None else str(c) for c in self.book.hands[seat]]}


_UNREAD_UPCARD = "the card to seat {seat} is dealt face up (FB-R24) and always seen: name it, not null"


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _buy_deals(seat: int, option: str, count: int) -> list[tuple[int, bool]]:
    """FB-R24: the upcard is face up; buying all four gives the fourth face up; the rest face down."""
    if option == "upcard":
        return [(seat, True)]
    if option == "all":
        return [(seat, False)] * 3 + [(seat, True)]
    return [(seat, False)] * count


_HANDLERS: dict[str, Callable[[FerbliGame, Event], list[Effect]]] = {
    "mus": FerbliGame._on_mus, "stake": FerbliGame._on_stake, "join": FerbliGame._on_join,
    "fold": FerbliGame._on_fold, "expose_demand": FerbliGame._on_expose_demand, "expose": FerbliGame._on_expose,
    "show": FerbliGame._on_show, "raise": FerbliGame._on_raise, "bet": FerbliGame._on_bet,
    "buy": FerbliGame._on_buy, "deal": FerbliGame._on_deal, "reveal": FerbliGame._on_reveal,
    "new_hand": FerbliGame._on_new_hand, "misdeal": FerbliGame._on_misdeal,
}

_PHASE_ACTIONS: dict[Phase, Callable[[FerbliGame], list[Event]]] = {
    Phase.MUS_DECISION: FerbliGame._mus_actions,
    Phase.DEAL_1: FerbliGame._deal_actions,
    Phase.DEAL_2: FerbliGame._deal_actions,
    Phase.OPENING_STAKE: FerbliGame._stake_actions,
    Phase.FIRST_DECISION: FerbliGame._first_decision_actions,
    Phase.EXPOSE: FerbliGame._expose_actions,
    Phase.BUYING: FerbliGame._buy_actions,
    Phase.DECISION: lambda game: game._wager_actions("bet"),
    Phase.LAST_JOINER: lambda game: game._wager_actions("raise"),
    Phase.SHOWDOWN: FerbliGame._reveal_actions,
    **{phase: FerbliGame._answer_actions for phase in RESPONSES},
}


def new_game(setup: GameSetup) -> FerbliGame:
    """Start a match from a game setup (FB-R1, FB-R3, table stakes); raises SetupError if it cannot."""
    if not MIN_PLAYERS <= len(setup.players) <= MAX_PLAYERS:
        raise SetupError(f"Färbeln is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(setup.players)}")
    options = parse_ferbli_options(setup.options)
    if setup.chips is None:
        raise SetupError("Färbeln is played for chips: the header needs 'chips', one balance per seat")
    game = FerbliGame(options, Chips(list(setup.chips)), setup.dealer)
    if len(game.playable()) < MIN_PLAYERS:
        raise SetupError(f"fewer than {MIN_PLAYERS} seats hold the {options.reserve} chip(s) needed to play a "
                         f"deal (Färbeln is for {MIN_PLAYERS} to {MAX_PLAYERS} players)")
    game._start_deal(setup.dealer)
    return game
