"""The table's devices as the service uses them: buttons, buzzer, status light and the peg board link.

Built from the config with gpiozero's default pin factory (set `GPIOZERO_PIN_FACTORY=mock` to run on a
PC) unless a factory is given. Closing turns the light off and tells the board the table has stopped
(the idle animation), then releases every pin and the serial port.
"""
from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from gpiozero.pins import Factory

from controller.hardware.buttons import ButtonEvent, TableButtons
from controller.hardware.buzzer import TableBuzzer
from controller.hardware.status_light import StatusLight
from controller.pegboard.link import LinkConfig, LinkStatus, PegBoardLink
from controller.pegboard.state import BoardState, Mode

from .config import ServiceConfig

log = logging.getLogger(__name__)

BOARD_GOODBYE_TIMEOUT = 1.0  # seconds to wait for the board to confirm the idle picture at shutdown


class ButtonSink:
    """What TableButtons posts to (it only calls put_nowait): each press handed to the service's queue."""

    def __init__(self, post: Callable[[ButtonEvent], None]) -> None:
        self._post = post

    def put_nowait(self, event: ButtonEvent) -> None:
        self._post(event)


@dataclass
class TableDevices:
    buttons: TableButtons
    buzzer: TableBuzzer
    light: StatusLight
    link: PegBoardLink | None  # None when the config says there is no peg board
    board: BoardState | None = None  # the latest state handed to the link

    @classmethod
    def open(cls, config: ServiceConfig, on_press: Callable[[ButtonEvent], None],
             on_link: Callable[[LinkStatus, str], None], pin_factory: Factory | None = None,
             buzzer_tempo: float = 1.0) -> TableDevices:
        sink = cast("queue.Queue[ButtonEvent]", ButtonSink(on_press))  # TableButtons only calls put_nowait
        buttons = TableButtons(config.hardware, sink, pin_factory)
        buzzer = TableBuzzer(config.hardware, pin_factory, tempo=buzzer_tempo)
        light = StatusLight(config.hardware, pin_factory)
        link = None
        if config.pegboard.enabled:
            link = PegBoardLink(LinkConfig(port=config.pegboard.port), on_status=on_link)
            link.start()
        return cls(buttons, buzzer, light, link)

    def show_board(self, state: BoardState) -> None:
        self.board = state
        if self.link is not None:
            self.link.set_state(state)

    def close(self) -> None:
        self.light.off()
        if self.link is not None:
            if self.board is not None:
                idle = self.board.with_mode(Mode.IDLE)
                self.link.set_state(idle)
                if not self.link.wait_confirmed(idle, BOARD_GOODBYE_TIMEOUT):
                    log.warning("the peg board did not confirm the idle picture at shutdown")
            self.link.stop()
        self.buzzer.close()
        self.light.close()
        self.buttons.close()
