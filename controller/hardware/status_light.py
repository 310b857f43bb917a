"""The RGB status light: ready, waiting for a card, illegal play, camera or board offline."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gpiozero import RGBLED
from gpiozero.pins import Factory

from controller.hardware.config import HardwareConfig

RGB = tuple[int, int, int]


class LightStatus(str, Enum):
    READY = "ready"
    WAITING = "waiting"  # for a card to be played or read
    ILLEGAL = "illegal"
    OFFLINE = "offline"  # camera or peg board


@dataclass(frozen=True)
class Pattern:
    colour: RGB
    blink: tuple[float, float] | None = None  # (on, off) seconds; None = steady


# Full-on primaries only, so a plain (non-PWM) RGB LED shows every status.
PATTERNS: dict[LightStatus, Pattern] = {
    LightStatus.READY: Pattern((0, 1, 0)),
    LightStatus.WAITING: Pattern((0, 0, 1)),
    LightStatus.ILLEGAL: Pattern((1, 0, 0), blink=(0.1, 0.1)),
    LightStatus.OFFLINE: Pattern((1, 1, 0), blink=(0.5, 0.5)),
}


def choose_status(*, camera_ok: bool, board_ok: bool, illegal: bool, waiting: bool) -> LightStatus:
    """The one status to show when several hold: offline beats illegal beats waiting beats ready."""
    if not (camera_ok and board_ok):
        return LightStatus.OFFLINE
    if illegal:
        return LightStatus.ILLEGAL
    return LightStatus.WAITING if waiting else LightStatus.READY


class StatusLight:
    def __init__(self, config: HardwareConfig, pin_factory: Factory | None = None) -> None:
        self._led = RGBLED(config.led_red, config.led_green, config.led_blue,
                           active_high=config.led_active_high, pwm=False, pin_factory=pin_factory)
        self.status: LightStatus | None = None

    def show(self, status: LightStatus) -> None:
        """Switch to a status (showing the same one again changes nothing, so a blink is not restarted)."""
        if status is self.status:
            return
        self.status = status
        pattern = PATTERNS[status]
        if pattern.blink is None:
            self._led.color = pattern.colour  # stops any blink first
        else:
            on, off = pattern.blink
            self._led.blink(on_time=on, off_time=off, on_color=pattern.colour, off_color=(0, 0, 0))

    def off(self) -> None:
        """Dark (the table has stopped); the next `show` lights it again."""
        self.status = None
        self._led.off()

    def close(self) -> None:
        self._led.close()
