"""The state hub: the one place the outside (the web panel, the demo's JSON, tests) reads the table from.

The service loop (the single writer) calls `publish(public, dealer, status)` after every change; each
call makes a new immutable `Snapshot` with the next version number. Readers never touch the session:

    hub.snapshot()                          # the latest Snapshot (version 0 before anything is published)
    hub.wait_for(version_after, timeout)    # the latest Snapshot newer than version_after, or None
    hub.changes_since(event_id)             # the snapshots after event_id still kept (SSE resume by
                                            # Last-Event-ID), or None when that id is too old to resume
    snapshot.public_document()              # JSON-ready: what a spectator may see (never a hidden card)
    snapshot.dealer_document()              # also what the dealer console may see, behind its PIN
    snapshot.public_json                    # public_document() serialized once, shared by every stream

`publish` never waits for a reader: the lock it takes is only ever held for a few assignments (readers
wait on the condition, which releases it). Memory is bounded: the latest snapshot plus a ring of the
`history` most recent ones. Views and snapshots must not be mutated by readers; the writer hands over
views it will not change again (engines build fresh dicts per call).
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

# The hold's parts a spectator may see; the crop and the cards still possible are the dealer's.
PUBLIC_HOLD_KEYS = ("reason", "seat", "zone")
PUBLIC_CHECK_KEYS = ("state", "deck", "at")  # a deck check's; the cards missing or twice are the dealer's
DEFAULT_HISTORY = 256  # ~17 s of changes at 15 fps: a phone that loses Wi-Fi for a moment resumes


@dataclass(frozen=True)
class TableStatus:
    """The table's health, beside the game: the camera, the peg board, a hold, the last refused event,
    and a fault that stops play (the journal cannot be written)."""

    camera: str = "starting"  # online, offline, bad_frame, starting
    pegboard: str = "disabled"  # up, down, resyncing, refused (controller.pegboard.link.LinkStatus), disabled
    hold: dict[str, Any] | None = None  # what the table waits for (the session's hold)
    last_refusal: dict[str, Any] | None = None  # {"event": ..., "error": ...} of the latest refused event
    fault: str | None = None  # why the table refuses to play on (journal read-only, disk full)
    club: str | None = None  # why the club publisher cannot put what the table does (its outbox's disk full)
    notice: str | None = None  # the session's word on the latest input (may name a hidden card: dealer only)
    deck_check: dict[str, Any] | None = None  # the running or latest deck check (its cards: dealer only)
    deck_check_mode: str = "offer"  # [console] deck_check: off, offer, required
    enrolment: dict[str, Any] | None = None  # a live enrolment at the console: progress, question (dealer only)
    waiting: str | None = None  # why the game does not start yet (its deck must pass a check first)

    def public(self) -> dict[str, Any]:
        hold = None if self.hold is None else {k: self.hold[k] for k in PUBLIC_HOLD_KEYS if k in self.hold}
        return {"camera": self.camera, "pegboard": self.pegboard, "hold": hold,
                "last_refusal": self.last_refusal, "fault": self.fault, "club": self.club,
                "deck_check": _public_check(self.deck_check), "waiting": self.waiting}

    def dealer(self) -> dict[str, Any]:
        return {**self.public(), "hold": self.hold, "notice": self.notice, "deck_check": self.deck_check,
                "deck_check_mode": self.deck_check_mode, "enrolment": self.enrolment}


def _public_check(check: dict[str, Any] | None) -> dict[str, Any] | None:
    """What spectators may see of a deck check: that it runs, passed or failed, and for which deck; no card."""
    return None if check is None else {key: check[key] for key in PUBLIC_CHECK_KEYS if key in check}


@dataclass(frozen=True)
class Snapshot:
    version: int
    at: float  # time.time() of the publish
    public: dict[str, Any]  # the session's public view
    dealer: dict[str, Any]  # the session's dealer view (hidden cards known to the table)
    status: TableStatus = field(default_factory=TableStatus)

    def public_document(self) -> dict[str, Any]:
        return {"version": self.version, "at": self.at, "table": self.public, "status": self.status.public()}

    def dealer_document(self) -> dict[str, Any]:
        return {"version": self.version, "at": self.at, "table": self.dealer, "status": self.status.dealer()}

    @cached_property
    def public_json(self) -> str:
        return json.dumps(self.public_document(), separators=(",", ":"))


class StateHub:
    def __init__(self, history: int = DEFAULT_HISTORY, clock: Callable[[], float] = time.time) -> None:
        if history < 1:
            raise ValueError(f"history must keep at least 1 snapshot, not {history}")
        self._clock = clock
        self._changed = threading.Condition(threading.Lock())
        self._latest = Snapshot(0, clock(), {}, {})
        self._recent: deque[Snapshot] = deque(maxlen=history)
        self._closed = False

    # --- the writer (the service loop) --------------------------------------------------------------
    def publish(self, public: dict[str, Any], dealer: dict[str, Any], status: TableStatus) -> Snapshot:
        """A new version of the whole table; wakes every waiting reader."""
        with self._changed:
            snapshot = Snapshot(self._latest.version + 1, self._clock(), public, dealer, status)
            self._latest = snapshot
            self._recent.append(snapshot)
            self._changed.notify_all()
        return snapshot

    def publish_status(self, status: TableStatus) -> Snapshot:
        """A new version with the same views and another status (the camera went offline, ...)."""
        latest = self._latest
        return self.publish(latest.public, latest.dealer, status)

    def close(self) -> None:
        """The service is stopping: waiting readers return at once (with None if nothing is newer)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    # --- readers ------------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def snapshot(self) -> Snapshot:
        return self._latest  # one reference read: always a whole snapshot

    def wait_for(self, version_after: int, timeout: float) -> Snapshot | None:
        """The latest snapshot newer than `version_after`, waiting up to `timeout` seconds for one; None
        on timeout or when the hub closes first. A slow reader skips versions: it gets the latest."""
        with self._changed:
            self._changed.wait_for(lambda: self._latest.version > version_after or self._closed, timeout)
            latest = self._latest
        return latest if latest.version > version_after else None

    def changes_since(self, event_id: int) -> list[Snapshot] | None:
        """Every kept snapshot after `event_id`, oldest first (empty when it is the latest); None when
        snapshots after it were already dropped from the ring (resend the whole latest snapshot)."""
        with self._changed:
            recent = list(self._recent)
            latest = self._latest.version
        if event_id == latest:
            return []
        if event_id > latest or not recent or recent[0].version > event_id + 1:
            return None  # an id from before a restart, or one the ring no longer reaches
        return [s for s in recent if s.version > event_id]
