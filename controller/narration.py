"""Plain-language lines for hand-history events and their effects (the demo's log, the dealer's view)."""
from __future__ import annotations

from typing import Any, Callable, Sequence, assert_never

from .engine import Carried, ChipMove, DealOver, Effect, Event, Judged, MatchOver, Misdeal, Note, Points, \
    Showdown, TalonReshuffled, Violation


def _cards(cards: Sequence[str | None]) -> str:
    return " ".join(card or "??" for card in cards)


def describe_event(event: Event, names: Sequence[str]) -> str:
    kind = event.get("type")
    who = names[event["seat"]] if isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(names) else "?"
    if kind == "deal" and "hands" in event:
        return "deal: " + "; ".join(f"{name} {_cards(hand)}" for name, hand in zip(names, event["hands"]))
    if kind == "deal":
        target = "the crib" if event.get("to") == "crib" else who
        return f"deal: {event.get('card') or 'a face-down card'} to {target}"
    if kind == "discard":
        return f"{who} lays {_cards(event.get('cards', []))} away to the crib"
    if kind == "starter":
        return f"starter turned: {event.get('card')}"
    if kind == "play":
        return f"{who} plays {event.get('card')}"
    if kind == "go":
        return f"{who}: go"
    if kind == "reveal":
        whose = f"{who}'s crib" if event.get("crib") else f"{who}'s hand"
        return f"{whose}: {_cards(event.get('cards', []))}"
    if kind == "claim":
        return f"{who} claims {event.get('points')}"
    if kind == "new_hand":
        return "new hand"
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "seat"))
    return f"{who if 'seat' in event else ''} {kind} {details}".strip()


def describe_judged(judged: Judged, names: Sequence[str]) -> tuple[str, list[str]]:
    """An event as the engine judged it (a table session's step holds them): its line, with the reason
    when refused, and a line for each of its effects."""
    text = describe_event(judged.event, names)
    if judged.error is not None:
        return f"{text}: REFUSED: {judged.error}", []
    return text, [describe_effect(effect, names) for effect in judged.effects]


def describe_effect(effect: Effect, names: Sequence[str]) -> str:
    """One line for any effect: a score, a chip movement, a violation, a note, a showdown, a deal's end."""
    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "nobody"

    match effect:
        case Points():
            cards = f" ({_cards(effect.cards)})" if effect.cards else ""
            return f"+{effect.points} {who(effect.seat)}: {effect.reason}{cards}"
        case ChipMove():
            return f"{effect.chips:+d} chips {who(effect.seat)}: {effect.reason}"
        case Violation():
            return f"VIOLATION {effect.kind} by {who(effect.seat)} {effect.details}"
        case Note():
            return _NOTES[effect.kind](effect.details, who)
        case Showdown():
            return "showdown: " + "; ".join(f"{who(h.seat)} {_cards(h.cards)} ({h.hand})" for h in effect.hands)
        case Carried():
            return f"{effect.amount} chips carried to the next deal: {effect.reason}"
        case TalonReshuffled():
            return f"the talon ran out: {effect.cards} discards reshuffled"
        case DealOver():
            won = "" if effect.hand_winner is None else f", won by {who(effect.hand_winner)}"
            return f"deal over ({effect.how}){won}"
        case Misdeal():
            return "misdeal: the same dealer deals again"
        case MatchOver():
            left = "" if effect.players_left is None else \
                f" ({', '.join(who(s) for s in effect.players_left)} left: Färbeln needs three)"
            return "match over: " + ("no winner" if effect.winner is None else f"{who(effect.winner)} wins") + left
    assert_never(effect)


Details = dict[str, Any]
Who = Callable[[int | None], str]

_NOTES: dict[str, Callable[[Details, Who], str]] = {
    "trick": lambda d, who: f"trick {d['trick']} to {who(d['winner'])} ({_cards(d['cards'])})",
    "trump": lambda d, who: f"trump: {d['card']} ({d['suit']})",
    "contenders": lambda d, who: "the last trick is played by " + ", ".join(who(s) for s in d["seats"]),
    "hand_won": lambda d, who: f"hand {d['hand']} won by {who(d['winner'])}",
    "no_winner": lambda d, who: f"hand {d['hand']} has no winner: hand sizes {d['sizes']}; the pot is carried",
    "redeal_requested": lambda d, who: f"{who(d['by'])} asks for a redeal",
    "redeal_declined": lambda d, who: f"{who(d['by'])} declines the redeal",
    "redeal": lambda d, who: f"agreed: {who(d['dealer'])} deals again",
    "decider": lambda d, who: f"a decider ({d['cause']}) between " + ", ".join(who(s) for s in d["seats"]),
    "match_won": lambda d, who: f"match won by {who(d['winner'])} ({d['cause']})",
}
