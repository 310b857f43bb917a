"""Seat and dealer buttons -> ButtonEvents on a queue.

gpiozero calls `when_pressed` on its own thread; the handlers only put an event on the queue (never
block: a full queue drops the press and counts it), and the table session reads the queue in its loop.
"""
from __future__ import annotations

import logging
import queue
import time
from dataclasses import dataclass
from enum import Enum

from gpiozero import Button
from gpiozero.pins import Factory

from controller.hardware.config import HardwareConfig

log = logging.getLogger(__name__)


class ButtonAction(str, Enum):
    GO = "go"  # a seat: "my turn is done" / "go" in the play
    CONFIRM = "confirm"  # a seat: confirm what the table read
    NEXT = "next"  # dealer: next hand / next step
    UNDO = "undo"  # dealer: undo the last accepted event


@dataclass(frozen=True)
class ButtonEvent:
    action: ButtonAction
    seat: int | None  # 0-based seat for GO/CONFIRM, None for dealer buttons
    at: float  # time.monotonic() of the press


class TableButtons:
    def __init__(self, config: HardwareConfig, events: queue.Queue[ButtonEvent],
                 pin_factory: Factory | None = None) -> None:
        self._events = events
        self.dropped = 0
        self._buttons: list[Button] = []
        for seat, pins in enumerate(config.seats):
            self._add(pins.go, ButtonAction.GO, seat, config, pin_factory)
            self._add(pins.confirm, ButtonAction.CONFIRM, seat, config, pin_factory)
        self._add(config.dealer_next, ButtonAction.NEXT, None, config, pin_factory)
        self._add(config.dealer_undo, ButtonAction.UNDO, None, config, pin_factory)

    def _add(self, pin: int, action: ButtonAction, seat: int | None, config: HardwareConfig,
             pin_factory: Factory | None) -> None:
        button = Button(pin, pull_up=True, bounce_time=config.bounce_time, pin_factory=pin_factory)
        button.when_pressed = lambda: self._post(ButtonEvent(action, seat, time.monotonic()))
        self._buttons.append(button)

    def _post(self, event: ButtonEvent) -> None:
        try:
            self._events.put_nowait(event)
        except queue.Full:
            self.dropped += 1
            log.warning("button event queue full: dropped %s", event)

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons.clear()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
