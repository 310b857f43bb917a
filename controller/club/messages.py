"""What a table sends the club, built from what the table already shows: the hub's public document, the
journal's accepted events (their sequence number, game, type and seat, never a card: the cards in sight
are in the state), and a finished game's result and hand history, which the panel too gives anyone once
the game has ended. Pure: JSON in, bytes out.
"""
from __future__ import annotations

import json
from typing import Any

from controller.journal import GameRecord
from controller.service.hub import Snapshot


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def state_payload(snapshot: Snapshot, dropped_events: int) -> bytes:
    """The public document, and how many events the outbox ever dropped (so a gap has its reason)."""
    return _json({**snapshot.public_document(), "dropped_events": dropped_events})


def event_payload(seq: int, game: int, n: int, event: dict[str, Any]) -> bytes:
    """One accepted event as the club sees it: which (seq: the journal's, one sequence per table), of
    which game, what kind and whose. A dealt card or a discard may still be hidden, so no card goes."""
    seat = event.get("seat")
    return _json({"seq": seq, "game": game, "n": n, "type": event.get("type"),
                  "seat": seat if isinstance(seat, int) else None})


def game_payload(record: GameRecord, history: list[str]) -> bytes:
    """A finished game: its setup, times, final summary and its hand history (cardtable-history lines)."""
    return _json({"game": record.id, "header": record.header, "started": record.started, "ended": record.ended,
                  "summary": record.summary, "events": record.events, "history": history})
