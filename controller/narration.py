"""Plain-language lines for hand-history events and their effects (the demo's log, the dealer's view)."""
from __future__ import annotations

from typing import Any, Sequence

from .engine import Effect, Event


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


def describe_effect(effect: Effect, names: Sequence[str]) -> str | None:
    """One line for a score, a chip movement or a violation; None for bookkeeping effects."""
    who = names[effect["seat"]] if isinstance(effect.get("seat"), int) else "?"
    cards = f" ({_cards(effect['cards'])})" if effect.get("cards") else ""
    if "points" in effect:
        return f"+{effect['points']} {who}: {effect.get('reason', '')}{cards}"
    if "chips" in effect:
        return f"{effect['chips']:+d} chips {who}: {effect.get('reason', '')}"
    if "violation" in effect:
        extra: dict[str, Any] = {k: v for k, v in effect.items() if k not in ("violation", "seat")}
        return f"VIOLATION {effect['violation']} by {who} {extra}"
    return None
