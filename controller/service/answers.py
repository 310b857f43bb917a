"""The session's word on a dealer console entry, from what feeding it did (pure).

An entry is accepted when it did what it asks: an event the engine took (a refused one is answered with
the engine's reason), an undo that took one back, a hold's card named or laid again while something was
held. Anything else (UNDO while on hold, naming a card when nothing is held) changed nothing, and the
answer says why in the session's words.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.table.holds import Hold
from controller.table.inputs import ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput
from controller.table.session import Step
from web_panel.ports import ConsoleAnswer

ConsoleEntry = ConsoleEvent | Resolve | Relay | ConsoleUndo
CONSOLE_ENTRIES = (ConsoleEvent, Resolve, Relay, ConsoleUndo)


@dataclass(frozen=True)
class Before:
    """The session as an entry found it."""

    hold: Hold | None
    events: int  # the current game's accepted events


def answer(entry: TableInput, before: Before, step: Step, events_after: int) -> ConsoleAnswer:
    refused = next((judged for judged in step.events if not judged["ok"]), None)
    if refused is not None:
        return ConsoleAnswer(False, f"refused: {refused['error']}")
    said = step.outputs.notice
    if isinstance(entry, ConsoleUndo):
        done = events_after < before.events
    elif isinstance(entry, (Resolve, Relay)):
        done = before.hold is not None and step.hold is not before.hold
    else:
        done = any(judged["ok"] for judged in step.events)
    if not done and isinstance(entry, ConsoleEvent) and before.hold is not None:
        return ConsoleAnswer(True, f"kept: judged once the hold is resolved ({before.hold.describe()})")
    if not done:
        return ConsoleAnswer(False, said or "that changes nothing now")
    if step.hold is not None:
        return ConsoleAnswer(True, f"accepted; the table holds again: {step.hold.describe()}")
    return ConsoleAnswer(True, said or "accepted")
