"""Shared by the panel tests: a console port that records what it was asked, stream reading, and what the
service publishes of a session."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from controller.service.hub import TableStatus
from controller.service.views import views
from controller.table.session import TableSession
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

    def deck_check(self, step: str, deck: str | None = None) -> ConsoleAnswer:
        return self._record("deck_check", (step, deck))

    def enrolment(self, step: str, answer: str | None = None) -> ConsoleAnswer:
        return self._record("enrolment", (step, answer))

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
    return *views(session), TableStatus(camera="online", hold=session.dealer_hold())
