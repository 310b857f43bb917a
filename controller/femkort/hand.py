"""One Femkort hand: the deal, the tricks and the proofs of revokes in unread hands (FK-R7..FK-R15, V5).

Each step is a `check_*` that raises IllegalEvent and changes nothing, and an action that assumes its check
passed. Chips and the match are game.py's business: here a finished hand just names its winner.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from ..cards import Card
from ..engine import Effect, IllegalEvent, Violation, note, violation
from .options import HAND_SIZE, TRICKS, FemkortOptions
from ..holding import Holding
from .state import Hand
from .tricks import TrickRules, claim_of, illegal_reason, legal_cards, winning_index

VIOLATED_RULE = {"revoke": "FK-R10", "failure_to_head": "FK-R11"}


def clockwise_from(seats: Iterable[int], start: int, players: int) -> tuple[int, ...]:
    """`seats` in clockwise order beginning at `start` (or the first of them after it)."""
    return tuple(sorted(seats, key=lambda s: (s - start) % players))


def make_hand(number: int, dealer: int, seats: Iterable[int], players: int, stake: int, stake_reason: str,
              options: FemkortOptions) -> Hand:
    """A hand ready to deal: forehand (left of the dealer) leads trick 1, the dealer plays last (FK-R7, R9)."""
    order = clockwise_from(seats, dealer + 1, players)
    rules = TrickRules(None, not options.no_head_obligation, options.head_semantics)
    return Hand(number, dealer, order, stake, stake_reason, [Holding() for _ in range(players)],
                rules=rules, order=order, tricks_won={s: 0 for s in order})


def clear_deal(hand: Hand) -> None:
    """V1: every hand is collected for a redeal (same dealer, same pot: GAP-FK-7)."""
    hand.holdings = [Holding() for _ in hand.holdings]
    hand.owner.clear()
    hand.rules = replace(hand.rules, trump=None)
    hand.trump_card = None


# ---- the deal ---------------------------------------------------------------------------------------

def dealt_count(hand: Hand) -> int:
    return sum(h.size for h in hand.holdings)


def wrong_sizes(hand: Hand, deal_over: bool) -> list[int] | None:
    """GAP-FK-3: the hand sizes when one is wrong (over 5 at once; other than 5 once the deal is over)."""
    sizes = [h.size for h in hand.holdings]
    bad = any(sizes[s] > HAND_SIZE or (deal_over and sizes[s] != HAND_SIZE) for s in hand.seats)
    return sizes if bad else None


def _check_receiver(hand: Hand, seat: int) -> None:
    if seat not in hand.seats:
        raise IllegalEvent(f"seat {seat} does not play this hand (seats {_seat_list(hand.seats)})")


def _check_new_card(hand: Hand, card: Card | None) -> None:
    if card is not None and card in hand.owner:
        raise IllegalEvent(f"card {card} was already dealt this hand")


def due_seat(hand: Hand) -> int:
    """The seat the next card goes to: one card at a time in deal order (FK-R7)."""
    return hand.seats[dealt_count(hand) % len(hand.seats)]


def turns_trump(hand: Hand, seat: int, position: int, options: FemkortOptions) -> bool:
    """V5: the card dealt at `position` to `seat` is the dealer's fifth, turned face up for trump."""
    return options.trump and seat == hand.dealer and position == HAND_SIZE - 1


def _check_trump_read(hand: Hand, seat: int, position: int, card: Card | None, options: FemkortOptions) -> None:
    if card is None and turns_trump(hand, seat, position, options):
        raise IllegalEvent("trump (V5): the dealer's fifth card is turned face up and must be read")


def check_single_deal(hand: Hand, seat: int, card: Card | None, options: FemkortOptions) -> None:
    _check_receiver(hand, seat)
    due = due_seat(hand)
    if seat != due:  # FK-R7; the deal order also tells whose fifth card turns trump (V5)
        raise IllegalEvent(f"deal out of order: seat {due} is due the next card")
    _check_new_card(hand, card)
    _check_trump_read(hand, seat, hand.holdings[seat].size, card, options)


def deal_card(hand: Hand, seat: int, card: Card | None, options: FemkortOptions) -> list[Effect]:
    holding = hand.holdings[seat]
    holding.add(card)
    if card is not None:
        hand.owner[card] = seat
    if options.trump and seat == hand.dealer and holding.size == HAND_SIZE and card is not None:
        return _turn_trump(hand, card)  # (check_*: the dealer's fifth card is always read under V5)
    return []


def check_hands_deal(hand: Hand, hands: Sequence[Sequence[Card | None]], options: FemkortOptions) -> None:
    if dealt_count(hand):
        raise IllegalEvent(f"the 'hands' shorthand is the whole deal, but {dealt_count(hand)} cards "
                           "were already dealt this hand")
    for seat, cards in enumerate(hands):
        if cards:
            _check_receiver(hand, seat)
    read = [card for cards in hands for card in cards if card is not None]
    if len(set(read)) != len(read):
        twice = next(card for i, card in enumerate(read) if card in read[:i])
        raise IllegalEvent(f"card {twice} is dealt twice")
    if len(hands[hand.dealer]) >= HAND_SIZE:
        _check_trump_read(hand, hand.dealer, HAND_SIZE - 1, hands[hand.dealer][HAND_SIZE - 1], options)


def deal_hands(hand: Hand, hands: Sequence[Sequence[Card | None]], options: FemkortOptions) -> list[Effect]:
    effects: list[Effect] = []
    for position in range(max(map(len, hands), default=0)):  # the deal order, one card at a time
        for seat in hand.seats:
            if position < len(hands[seat]):
                effects += deal_card(hand, seat, hands[seat][position], options)
    return effects


def _turn_trump(hand: Hand, card: Card) -> list[Effect]:
    """V5 / GAP-FK-11: the dealer's last card shows the trump suit and stays in his hand."""
    hand.trump_card = card
    hand.rules = replace(hand.rules, trump=card.suit)
    return [note("trump", card=str(card), suit=card.suit.word)]


# ---- the play ---------------------------------------------------------------------------------------

def check_play(hand: Hand, seat: int, card: Card) -> bool:
    """FK-R19: out of turn, a second card in one trick, a card not held, a revoke (FK-R10/R11).

    Returns whether the card comes from the seat's unread cards (for play_card)."""
    _check_turn(hand, seat)
    from_unread = _check_holds(hand, seat, card)
    known = hand.holdings[seat].known
    reason = illegal_reason([*known, card] if from_unread else known, card, hand.trick, hand.rules, seat)
    if reason:
        raise IllegalEvent(reason)
    return from_unread


def _check_turn(hand: Hand, seat: int) -> None:
    _check_receiver(hand, seat)
    position = len(hand.trick)
    if seat in hand.order[:position]:
        raise IllegalEvent(f"seat {seat} has already played to trick {hand.trick_number}")
    if seat not in hand.order:
        raise IllegalEvent(f"seat {seat} is not a contender in trick {TRICKS}: "
                           f"it won none of tricks 1-{TRICKS - 1} (contender_rule won_a_trick)")
    if hand.order[position] != seat:
        raise IllegalEvent(f"not your turn: seat {hand.order[position]} is to play")


def _check_holds(hand: Hand, seat: int, card: Card) -> bool:
    """The card is in the seat's hand: read at the deal, or one of its unread cards. True if unread."""
    if card in hand.played:
        raise IllegalEvent(f"card {card} was already played this hand (trick {hand.played[card]})")
    owner = hand.owner.get(card)
    if owner != seat and (owner is not None or hand.holdings[seat].unknown == 0):
        raise IllegalEvent(f"card {card} is not in seat {seat}'s hand")
    return owner is None


@dataclass
class PlayResult:
    effects: list[Effect] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    hand_winner: int | None = None


def play_card(hand: Hand, seat: int, card: Card, from_unread: bool, contender_rule: str) -> PlayResult:
    """Play a card that passed check_play; resolves the trick when it is complete."""
    holding = hand.holdings[seat]
    others_unread = holding.unknown - (1 if from_unread else 0)
    holding.take(None if from_unread else card)
    result = PlayResult()
    result.violations = _proven_violations(hand, seat, card)
    result.effects += result.violations
    claim = claim_of(card, hand.trick, hand.rules) if others_unread else None
    if claim is not None:
        hand.claims.append((seat, hand.trick_number, claim))
    hand.played[card] = hand.trick_number
    hand.trick.append(card)
    if len(hand.trick) == len(hand.order):
        _finish_trick(hand, contender_rule, result)
    return result


def _proven_violations(hand: Hand, seat: int, card: Card) -> list[Violation]:
    """Unread hands: `card` contradicts what an earlier play of this seat claimed (a proven revoke)."""
    proven = [(t, c) for s, t, c in hand.claims if s == seat and c.contradicted_by(card)]
    if not proven:
        return []
    hand.claims = [(s, t, c) for s, t, c in hand.claims if not (s == seat and c.contradicted_by(card))]
    return [violation(claim.kind, seat, trick=trick, hand=hand.number, card=str(card),
                             rule=VIOLATED_RULE[claim.kind]) for trick, claim in proven]


def _finish_trick(hand: Hand, contender_rule: str, result: PlayResult) -> None:
    winner = hand.order[winning_index(hand.trick, hand.rules.trump)]
    hand.tricks_won[winner] += 1
    result.effects.append(note("trick", trick=hand.trick_number, winner=winner,
                               cards=[str(c) for c in hand.trick]))
    if hand.trick_number == TRICKS:
        result.hand_winner = winner  # FK-R14
        return
    hand.trick_number += 1
    hand.trick = []
    players = hand.seats
    if hand.trick_number == TRICKS and contender_rule == "won_a_trick":
        players = tuple(sorted(s for s in hand.seats if hand.tricks_won[s]))  # FK-R15 reading B
        result.effects.append(note("contenders", seats=list(players)))
        if len(players) == 1:
            result.hand_winner = players[0]
            return
    hand.order = clockwise_from(players, winner, len(hand.holdings))


def is_legal_play(hand: Hand, seat: int, card: Card) -> bool:
    try:
        check_play(hand, seat, card)
    except IllegalEvent:
        return False
    return True


def legal_plays(hand: Hand, seat: int) -> list[Card]:
    """The read cards `seat` may play now (all of them may be unknown when the deal was not read)."""
    return legal_cards(hand.holdings[seat].known, hand.trick, hand.rules)


def _seat_list(seats: Iterable[int]) -> str:
    return ", ".join(map(str, seats))
