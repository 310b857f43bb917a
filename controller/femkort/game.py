"""The Femkort engine: a pure state machine over hand-history events (RULES.md, FK-R1..R19, V1..V5).

Events: `deal` (single cards or the `hands` shorthand; `"card": null` when unread), `play`, `new_hand`
(optional `"dealer"` assertion), and the V1 events `redeal_request` / `redeal_answer`. This engine adds:

* `{"type": "time_up"}` — the session time has run out (FK-R17). Accepted between hands only (a hand in
  progress is finished first). The winner is picked by the time-out rule; a tie starts a decider hand.

Effects: chip movements (`stake`, `restake`, `pot`, `kitty`, `carry`), `violation` effects (revokes proven
in unread hands), and `note` effects that move no chips (`trick`, `trump`, `contenders`, `hand_won`,
`no_winner`, `redeal_requested`, `redeal_declined`, `redeal`, `decider`, `match_won`).

Money (GAP choices documented in controller/femkort/README.md): the stakes of a hand are paid on its first
event line, the carry (a no-winner hand's pot, or the V2 session kitty) joins the pot at that moment; a
normal hand whose stakes a seat cannot pay ends the match by the time-out rule ("short_stack").
"""
from __future__ import annotations

from typing import Any, Callable

from ..actions import new_hand_actions, per_card
from ..cards import Card, full_deck
from ..chips import CARRY, POT, Chips
from ..engine import Effect, Event, GameSetup, IllegalEvent, SetupError, effects_json, note, table_view
from ..events import event_card, event_handler, event_hands, event_seat, optional_card, require_int
from ..options import parse_options
from . import hand as hands
from .options import HAND_SIZE, MAX_PLAYERS, FemkortOptions
from .state import MatchState, Phase


DECK = full_deck()


class FemkortGame:
    """Judge Femkort events one at a time; a rejected event raises IllegalEvent and changes nothing."""

    game = "femkort"

    def __init__(self, options: FemkortOptions, dealer: int, balances: list[int]) -> None:
        players = len(balances)
        first = hands.make_hand(1, dealer, range(players), players, options.stake, "stake", options)
        self.state = MatchState(options, Chips(list(balances)), first, pots_won=[0] * players)

    # ---- the Engine protocol ------------------------------------------------------------------------

    def apply(self, event: Event) -> list[Effect]:
        handler = event_handler(_HANDLERS, event, "Femkort")
        if self.state.phase is Phase.MATCH_OVER:
            raise IllegalEvent(f"the match is over: seat {self.state.winner} won it")
        return handler(self, event)

    def summary(self) -> dict[str, Any]:
        s = self.state
        return {"scores": None, "chips": list(s.chips.balances), "pot": s.chips.pot, "carry": s.chips.carry,
                "hand_over": self.hand_over, "hand_winner": s.hand_winner, "winner": s.winner,
                "violations": effects_json(s.violations), "pots_won": list(s.pots_won)}

    # ---- queries ------------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def dealer(self) -> int:
        return self.state.hand.dealer

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def hand_over(self) -> bool:
        return self.state.hands_finished > 0 and self.state.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)

    @property
    def game_over(self) -> bool:
        return self.state.phase is Phase.MATCH_OVER

    def to_act(self) -> int | None:
        """The seat whose card is expected next once the deal is done, or the first seat still to answer a
        redeal request; None while the dealer deals (or the deal left a wrong hand size) and between hands."""
        s, hand = self.state, self.state.hand
        if s.phase is Phase.REDEAL_VOTE:
            return self._redeal_waiting()[0]
        if s.phase is Phase.DEALING and hands.wrong_sizes(hand, deal_over=True):
            return None
        if s.phase not in (Phase.DEALING, Phase.PLAYING):
            return None
        return hand.order[len(hand.trick)]

    def legal_actions(self) -> list[Event]:
        """The events accepted now (the `hands` shorthand aside; conventions in controller/actions.py)."""
        s = self.state
        if s.phase is Phase.MATCH_OVER:
            return []
        if s.phase is Phase.REDEAL_VOTE:
            return [{"type": "redeal_answer", "seat": seat, "agree": agree}
                    for seat in self._redeal_waiting() for agree in (True, False)]
        if s.phase is Phase.BETWEEN_HANDS:
            time_up: list[Event] = [] if s.time_up else [{"type": "time_up"}]
            return [*new_hand_actions(s.hand.dealer), *time_up, *self._deal_actions()]
        actions = self._deal_actions()
        if s.phase is Phase.PLAYING or hands.dealt_count(s.hand):
            actions += self._play_actions()
        if s.phase is Phase.DEALING and s.options.redeal_on_request and not hands.wrong_sizes(s.hand, True):
            actions += [{"type": "redeal_request", "seat": seat} for seat in s.hand.seats]
        return actions

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see now: the trick on the table (who laid what), who leads, tricks won,
        the pot, carry, chips and pots won, and the trump once turned. No card still in a hand."""
        s, hand = self.state, self.state.hand
        playing = s.phase is Phase.PLAYING
        return {
            **table_view(self), "hand": hand.number, "seats": list(hand.seats),
            "leader": hand.order[0] if playing else None, "trick_number": hand.trick_number if playing else None,
            "trick": [{"seat": seat, "card": str(card)} for seat, card in zip(hand.order, hand.trick)],
            "tricks_won": [hand.tricks_won.get(seat, 0) for seat in range(s.players)],
            "held": [holding.size for holding in hand.holdings],
            "trump": None if hand.trump_card is None else str(hand.trump_card),
            "chips": list(s.chips.balances), "pot": s.chips.pot, "carry": s.chips.carry, "stake": hand.stake,
            "pots_won": list(s.pots_won), "pots_to_win": s.options.pots_to_win, "hand_winner": s.hand_winner,
            "winner": s.winner, "decider": None if s.decider is None else list(s.decider), "time_up": s.time_up,
            "redeal": None if hand.redeal_by is None else {"by": hand.redeal_by, "agreed": list(hand.agreed)},
        }

    def dealer_view(self) -> dict[str, Any]:
        """The public view and the cards of every hand that were read at the deal."""
        return {**self.public_view(), "hands": [holding.to_json() for holding in self.state.hand.holdings]}

    def legal_plays(self, seat: int) -> list[Card]:
        return hands.legal_plays(self.state.hand, seat)

    def _unseen(self) -> list[Card]:
        hand = self.state.hand
        return [card for card in DECK if card not in hand.owner and card not in hand.played]

    def _deal_actions(self) -> list[Event]:
        """The next card of the deal, to the seat it is due (a sixth card too: it voids the hand)."""
        s = self.state
        if s.phase not in (Phase.BETWEEN_HANDS, Phase.DEALING):
            return []
        seat = hands.due_seat(s.hand)
        unseen = self._unseen()
        must_read = hands.turns_trump(s.hand, seat, s.hand.holdings[seat].size, s.options)
        return per_card({"type": "deal", "seat": seat}, unseen if must_read else [None, *unseen])

    def _play_actions(self) -> list[Event]:
        """Every card the seat to play may lay: its read cards, and any unseen card while it holds unread ones."""
        hand = self.state.hand
        seat = self.to_act()
        if seat is None:  # GAP-FK-3: a short deal; any first card ends it, the hand has no winner
            return per_card({"type": "play", "seat": hand.order[0]}, DECK)
        holding = hand.holdings[seat]
        cards = [c for c in holding.known + (self._unseen() if holding.unknown else [])
                 if hands.is_legal_play(hand, seat, c)]
        return per_card({"type": "play", "seat": seat}, cards)

    def _redeal_waiting(self) -> list[int]:
        hand = self.state.hand
        return [seat for seat in hand.seats if seat != hand.redeal_by and seat not in hand.agreed]

    # ---- events ---------------------------------------------------------------------------------------

    def _on_new_hand(self, event: Event) -> list[Effect]:
        self._require_between("new_hand")
        if event.get("dealer") is not None:
            dealer = require_int(event, "dealer")
            if dealer != self.state.hand.dealer:
                raise IllegalEvent(f"dealer: seat {self.state.hand.dealer} deals hand {self.state.hand.number}, "
                                   f"not seat {dealer}")
        return self._start_hand()

    def _on_deal(self, event: Event) -> list[Effect]:
        s = self.state
        if s.phase not in (Phase.BETWEEN_HANDS, Phase.DEALING):
            raise IllegalEvent(self._busy_reason("deal"))
        if "hands" in event:
            dealt = event_hands(event, s.players)
            hands.check_hands_deal(s.hand, dealt, s.options)
            effects = self._start_hand() + hands.deal_hands(s.hand, dealt, s.options)
            deal_over = True
        else:
            if event.get("to") is not None:
                raise IllegalEvent("femkort deals only to seats (no 'to')")
            seat, card = event_seat(event, s.players), optional_card(event)
            hands.check_single_deal(s.hand, seat, card, s.options)
            effects = self._start_hand() + hands.deal_card(s.hand, seat, card, s.options)
            if s.hand.holdings[seat].size <= HAND_SIZE:  # only the receiving seat can have grown past five
                return effects
            deal_over = False
        sizes = hands.wrong_sizes(s.hand, deal_over)
        return effects + (self._no_winner(sizes) if sizes else [])

    def _on_play(self, event: Event) -> list[Effect]:
        s = self.state
        if s.phase is not Phase.PLAYING and (s.phase is not Phase.DEALING or not hands.dealt_count(s.hand)):
            raise IllegalEvent(self._busy_reason("play"))
        seat, card = event_seat(event, s.players), event_card(event)
        sizes = hands.wrong_sizes(s.hand, deal_over=True) if s.phase is Phase.DEALING else None
        if sizes:  # GAP-FK-3: the first card played ends the deal; a short hand voids it
            return self._no_winner(sizes)
        from_unread = hands.check_play(s.hand, seat, card)
        s.phase = Phase.PLAYING
        result = hands.play_card(s.hand, seat, card, from_unread, s.options.contender_rule)
        s.violations += result.violations
        if result.hand_winner is None:
            return result.effects
        return result.effects + self._hand_won(result.hand_winner)

    def _on_redeal_request(self, event: Event) -> list[Effect]:
        """V1: before the first card is played, any player may ask; every other player answers."""
        s = self.state
        if not s.options.redeal_on_request:
            raise IllegalEvent("redeal on request (V1) is not played at this table")
        if s.phase is not Phase.DEALING:
            raise IllegalEvent(self._busy_reason("redeal_request"))
        seat = self._hand_seat(event)
        sizes = [s.hand.holdings[x].size for x in s.hand.seats]
        if any(size != HAND_SIZE for size in sizes):
            raise IllegalEvent(f"the deal is not finished (hand sizes {sizes}): ask for a redeal after it")
        s.hand.redeal_by, s.hand.agreed = seat, []
        s.phase = Phase.REDEAL_VOTE
        return [note("redeal_requested", by=seat)]

    def _on_redeal_answer(self, event: Event) -> list[Effect]:
        s = self.state
        if s.phase is not Phase.REDEAL_VOTE:
            raise IllegalEvent("redeal_answer: no redeal request is waiting for answers")
        seat = self._hand_seat(event)
        agree = event.get("agree")
        if not isinstance(agree, bool):
            raise IllegalEvent(f"malformed redeal_answer event: 'agree' must be true or false, got {agree!r}")
        if seat == s.hand.redeal_by or seat in s.hand.agreed:
            raise IllegalEvent(f"seat {seat} has already answered the redeal request")
        if not agree:  # one refusal decides: play on as dealt (GAP-FK-8: the request may be repeated)
            s.hand.redeal_by, s.hand.agreed = None, []
            s.phase = Phase.DEALING
            return [note("redeal_declined", by=seat)]
        s.hand.agreed.append(seat)
        if len(s.hand.agreed) < len(s.hand.seats) - 1:
            return []
        hands.clear_deal(s.hand)  # GAP-FK-7: same dealer, same pot, no extra stake
        s.hand.redeal_by, s.hand.agreed = None, []
        s.phase = Phase.DEALING
        return [note("redeal", dealer=s.hand.dealer)]

    def _on_time_up(self, event: Event) -> list[Effect]:
        """FK-R17: the session time ran out. Between hands only; a second time_up is refused."""
        s = self.state
        if s.time_up:
            raise IllegalEvent(f"time is already up: the decider between seats {list(s.decider or ())} is on")
        self._require_between("time_up")
        s.time_up = True
        return self._end_by_time_rule("time_up", s.hand.dealer)

    # ---- the match: stakes, pots, dealers, the end (FK-R5, R6, R14, R16..R18, V2, V4) ------------------

    def _start_hand(self) -> list[Effect]:
        """FK-R6 / FK-R16: the stakes are paid (and the carry joins the pot) on the hand's first line."""
        s, chips = self.state, self.state.chips
        if s.hand.started:
            return []
        chips.move(CARRY, POT, chips.carry, "carry")
        effects: list[Effect] = []
        for seat in s.hand.seats:
            if s.hand.stake:
                effects += chips.move(seat, POT, s.hand.stake, s.hand.stake_reason)
        s.hand.started = True
        s.phase = Phase.DEALING
        return effects

    def _hand_won(self, winner: int) -> list[Effect]:
        s = self.state
        s.pots_won[winner] += 1
        s.hand_winner = winner
        s.hands_finished += 1
        effects: list[Effect] = [note("hand_won", hand=s.hand.number, winner=winner)]
        if s.decider is not None:
            return effects + self._match_over(winner, "decider")
        if s.pots_won[winner] >= s.options.pots_to_win:
            return effects + self._match_over(winner, "pots")
        if s.options.best_of_three:
            s.chips.move(POT, CARRY, s.chips.pot, "kitty")  # GAP-FK-9: the session kitty waits for the end
        else:
            effects += s.chips.move(POT, winner, s.chips.pot, "pot")  # FK-R14
        return effects + self._next_hand(s.hand.dealer + 1, restake=False)

    def _no_winner(self, sizes: list[int]) -> list[Effect]:
        """FK-R16 / GAP-FK-3: the pot is carried to a redeal by the same dealer (GAP-FK-4), re-staked."""
        s = self.state
        s.hand_winner = None
        s.hands_finished += 1
        s.chips.move(POT, CARRY, s.chips.pot, "carry")
        effects = [note("no_winner", hand=s.hand.number, cause="hand_sizes", sizes=sizes)]
        return effects + self._next_hand(s.hand.dealer, restake=True)

    def _next_hand(self, dealer_from: int, restake: bool) -> list[Effect]:
        """Set up the next hand (stakes paid on its first line); a seat short of the stake ends the match."""
        s = self.state
        seats = s.decider or tuple(range(s.players))
        dealer = hands.clockwise_from(seats, dealer_from % s.players, s.players)[0]
        stake = s.options.stake * (2 if restake and s.options.stake_escalation else 1)  # V4 / GAP-FK-10
        if s.decider is not None:  # a decider is always played: at most what its poorest player holds
            stake = min([stake] + [s.chips.balances[x] for x in seats])
        elif any(s.chips.balances[x] < stake for x in seats):
            return self._end_by_time_rule("short_stack", dealer)
        s.hand = hands.make_hand(s.hands_finished + 1, dealer, seats, s.players, stake,
                                 "restake" if restake else "stake", s.options)
        s.phase = Phase.BETWEEN_HANDS
        return []

    def _end_by_time_rule(self, cause: str, dealer_from: int) -> list[Effect]:
        """GAP-FK-5: most chips wins (V2: most pots); FK-R18: a tie plays a decider hand (GAP-FK-6)."""
        s = self.state
        measure = s.pots_won if s.options.best_of_three else s.chips.balances
        best = max(measure)
        leaders = tuple(seat for seat, value in enumerate(measure) if value == best)
        if len(leaders) == 1:
            return self._match_over(leaders[0], cause)
        s.decider = leaders
        return [note("decider", seats=list(leaders), cause=cause)] + self._next_hand(dealer_from, restake=False)

    def _match_over(self, winner: int, cause: str) -> list[Effect]:
        """The winner takes what is left in the pot and the carry (the V2 kitty, or a no-winner pot)."""
        s, chips = self.state, self.state.chips
        kitty = s.options.best_of_three
        effects: list[Effect] = []
        if chips.pot:
            effects += chips.move(POT, winner, chips.pot, "kitty" if kitty else "pot")
        if chips.carry:
            effects += chips.move(CARRY, winner, chips.carry, "kitty" if kitty else "carry")
        s.winner = winner
        s.phase = Phase.MATCH_OVER
        return effects + [note("match_won", winner=winner, cause=cause)]

    # ---- shared checks ----------------------------------------------------------------------------------

    def _hand_seat(self, event: Event) -> int:
        seat = event_seat(event, self.state.players)
        if seat not in self.state.hand.seats:
            raise IllegalEvent(f"seat {seat} does not play this hand")
        return seat

    def _require_between(self, what: str) -> None:
        if self.state.phase is not Phase.BETWEEN_HANDS:
            raise IllegalEvent(self._busy_reason(what))

    def _busy_reason(self, what: str) -> str:
        """Why `what` does not fit the current phase."""
        s = self.state
        hand = s.hand
        if s.phase is Phase.BETWEEN_HANDS:
            return f"{what}: hand {hand.number} has not started: deal the cards first"
        if s.phase is Phase.REDEAL_VOTE:
            waiting = sorted(self._redeal_waiting())
            return f"{what}: seat {hand.redeal_by}'s redeal request is waiting for seats {waiting}"
        if s.phase is Phase.DEALING and not hands.dealt_count(hand):
            return f"{what}: hand {hand.number} has started but no card has been dealt yet"
        if s.phase is Phase.DEALING:
            return f"{what}: hand {hand.number} has started (dealing, no card played yet)"
        return f"{what}: hand {hand.number} is being played (trick {hand.trick_number})"


_HANDLERS: dict[str, Callable[[FemkortGame, Event], list[Effect]]] = {
    "deal": FemkortGame._on_deal,
    "play": FemkortGame._on_play,
    "new_hand": FemkortGame._on_new_hand,
    "redeal_request": FemkortGame._on_redeal_request,
    "redeal_answer": FemkortGame._on_redeal_answer,
    "time_up": FemkortGame._on_time_up,
}


def new_game(setup: GameSetup) -> FemkortGame:
    """Start a match from a game setup (FK-R1 player count, options, starting chips)."""
    try:
        options = parse_options(FemkortOptions, setup.options)
    except SetupError as error:
        raise SetupError(f"femkort: {error}") from None
    players = len(setup.players)
    if not options.min_players <= players <= MAX_PLAYERS:
        two = "" if options.allow_two_players else " (2 only with allow_two_players)"
        raise SetupError(f"femkort is for {options.min_players}-{MAX_PLAYERS} players{two}, got {players}")
    return FemkortGame(options, setup.dealer, _starting_chips(setup, options))


def _starting_chips(setup: GameSetup, options: FemkortOptions) -> list[int]:
    if setup.chips is not None and "starting_stack" in setup.options:
        raise SetupError("femkort: give the starting chips either in 'chips' or as 'starting_stack', not both")
    chips = [options.starting_stack] * len(setup.players) if setup.chips is None else list(setup.chips)
    poor = [seat for seat, amount in enumerate(chips) if amount < options.stake]
    if poor:  # the first hand's stakes must be payable (FK-R6)
        raise SetupError(f"femkort: seat {poor[0]} starts with {chips[poor[0]]} chips, "
                         f"less than the stake {options.stake}")
    return chips
