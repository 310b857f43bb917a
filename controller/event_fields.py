"""The fields each game's events may carry, so a misspelt field is refused instead of silently ignored.

Options already worked so (an unknown option name is an error); events now do too. The replay checks a
history line here before the engine sees it, so a refused line changes nothing. Every event may also
carry "type"; a `deal` may say `"up": true` in every game (a card dealt face up).
"""
from __future__ import annotations

from collections.abc import Mapping

from .engine import Event

_DEAL = frozenset({"seat", "card", "up", "hands", "to"})

EVENT_FIELDS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "cribbage": {
        "deal": _DEAL,
        "discard": frozenset({"seat", "cards"}),
        "starter": frozenset({"card"}),
        "play": frozenset({"seat", "card"}),
        "go": frozenset({"seat"}),
        "reveal": frozenset({"seat", "cards", "crib"}),
        "claim": frozenset({"seat", "points", "crib", "by"}),
        "new_hand": frozenset({"dealer"}),
    },
    "femkort": {
        "deal": _DEAL,
        "play": frozenset({"seat", "card"}),
        "new_hand": frozenset({"dealer"}),
        "redeal_request": frozenset({"seat"}),
        "redeal_answer": frozenset({"seat", "agree"}),
        "time_up": frozenset(),
    },
    "ferbli": {
        "mus": frozenset({"seat", "amount"}),
        "stake": frozenset({"seat", "amount"}),
        "join": frozenset({"seat"}),
        "fold": frozenset({"seat"}),
        "expose_demand": frozenset({"seat"}),
        "expose": frozenset({"seat", "cards"}),
        "show": frozenset({"seat"}),
        "raise": frozenset({"seat", "amount"}),
        "bet": frozenset({"seat", "amount"}),
        "buy": frozenset({"seat", "option", "discard"}),
        "deal": _DEAL,
        "reveal": frozenset({"seat", "cards"}),
        "new_hand": frozenset({"dealer", "draw"}),
        "misdeal": frozenset(),
    },
}


def unknown_fields(game: str, event: Event) -> str | None:
    """Why `event` is refused for fields `game` does not know, or None (an unknown or malformed type is
    left to the engine, which names the types it knows)."""
    kind = event.get("type")
    known = EVENT_FIELDS[game].get(kind) if isinstance(kind, str) else None
    if known is None:
        return None
    unknown = sorted(event.keys() - known - {"type"})
    if not unknown:
        return None
    allowed = ", ".join(sorted(known)) or "no field but type"
    names = ", ".join(repr(name) for name in unknown)
    return f"malformed {kind} event: unknown field(s) {names} (a {kind} event has: {allowed})"
