"""Shared by the panel tests: a console port that records what it was asked, and stream reading."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card
from controller.history import Header
from controller.service.hub import StateHub, TableStatus
from controller.service.views import dealer_view, public_view
from controller.table.inputs import ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput
from controller.table.session import Step, TableSession
from web_panel.ports import ConsoleAnswer, GameStart


@dataclass
class RecordingConsole:
    """The service's side of the console for tests of the panel alone: records each call, answers `answer`."""

    answer: ConsoleAnswer = ConsoleAnswer(True, "accepted")
    calls: list[tuple[str, Any]] = field(default_factory=list)
    crop: bytes | None = None

    def start_game(self, start: GameStart) -> ConsoleAnswer:
        return self._record("start_game", start)

    def console_event(self, event: dict[str, Any]) -> ConsoleAnswer:
        return self._record("console_event", event)

    def resolve_hold(self, card: str) -> ConsoleAnswer:
        return self._record("resolve_hold", card)

    def relay(self) -> ConsoleAnswer:
        return self._record("relay", None)

    def undo(self) -> ConsoleAnswer:
        return self._record("undo", None)

    def end_game(self) -> ConsoleAnswer:
        return self._record("end_game", None)

    def hold_crop(self) -> bytes | None:
        return self.crop

    def _record(self, name: str, argument: Any) -> ConsoleAnswer:
        self.calls.append((name, argument))
        return self.answer


def sse_messages(chunks: Iterator[bytes]) -> Iterator[dict[str, str]]:
    """The stream's events ({"id", "data"} or {"comment"}) as they arrive, from raw chunks."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            message: dict[str, str] = {}
            for line in block.decode().split("\n"):
                field_name, _, value = line.partition(":")
                message[field_name or "comment"] = value.removeprefix(" ")
            yield message


def published(session: TableSession) -> tuple[dict[str, Any], dict[str, Any], TableStatus]:
    """What the service publishes (its own view builders), and the hold."""
    return public_view(session), dealer_view(session), TableStatus(camera="online", hold=session.dealer_hold())


class SessionDesk:
    """A console port over a real table session, publishing to the hub after every input as the service
    does; inputs from the test (the camera) and from the panel's threads are fed one at a time."""

    def __init__(self, hub: StateHub, session: TableSession) -> None:
        self.hub, self.session = hub, session
        self._lock = threading.Lock()
        hub.publish(*published(session))

    def feed(self, item: TableInput) -> Step:
        with self._lock:
            step = self.session.feed(item)
            self.hub.publish(*published(self.session))
        return step

    def start_game(self, start: GameStart) -> ConsoleAnswer:
        with self._lock:
            self.session = TableSession(Header(start.game, start.players, start.dealer, start.options, None), start.deal)
            self.hub.publish(*published(self.session))
        return ConsoleAnswer(True, f"{start.game} started")

    def console_event(self, event: dict[str, Any]) -> ConsoleAnswer:
        return self._answer(self.feed(ConsoleEvent(event)))

    def resolve_hold(self, card: str) -> ConsoleAnswer:
        return self._answer(self.feed(Resolve(Card.parse(card))))

    def relay(self) -> ConsoleAnswer:
        return self._answer(self.feed(Relay()))

    def undo(self) -> ConsoleAnswer:
        return self._answer(self.feed(ConsoleUndo()))

    def end_game(self) -> ConsoleAnswer:
        return ConsoleAnswer(False, "a table session ends its game by starting another")

    def hold_crop(self) -> bytes | None:
        return None

    @staticmethod
    def _answer(step: Step) -> ConsoleAnswer:
        refused = next((entry for entry in step.events if not entry["ok"]), None)
        if refused is not None:
            return ConsoleAnswer(False, refused["error"])
        return ConsoleAnswer(True, step.outputs.notice or "accepted")
