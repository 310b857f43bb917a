"""GPIO pin assignment for the table's buttons, buzzer and status light (BCM numbers).

Defaults (4 seats; change them in the service config under [hardware]):

    seat 1 go/confirm  GPIO5 / GPIO6       dealer next  GPIO23
    seat 2 go/confirm  GPIO13 / GPIO19     dealer undo  GPIO24
    seat 3 go/confirm  GPIO26 / GPIO21     buzzer       GPIO18 (hardware PWM, for the tonal buzzer)
    seat 4 go/confirm  GPIO20 / GPIO16     status LED   red GPIO17, green GPIO27, blue GPIO22

Buttons connect the pin to ground (internal pull-up). GPIO14/15 stay free for the peg board UART.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class SeatPins:
    go: int
    confirm: int


@dataclass(frozen=True)
class HardwareConfig:
    seats: tuple[SeatPins, ...] = (SeatPins(5, 6), SeatPins(13, 19), SeatPins(26, 21), SeatPins(20, 16))
    dealer_next: int = 23
    dealer_undo: int = 24
    buzzer: int = 18
    buzzer_tonal: bool = True  # False: an active (on/off) buzzer
    led_red: int = 17
    led_green: int = 27
    led_blue: int = 22
    led_active_high: bool = True  # False for a common-anode RGB LED
    bounce_time: float | None = 0.02

    def __post_init__(self) -> None:
        pins = self.pins()
        for name, pin in pins.items():
            if not 0 <= pin <= 27:
                raise ValueError(f"{name}: GPIO{pin} is not a Raspberry Pi header GPIO (0..27)")
        by_pin: dict[int, str] = {}
        for name, pin in pins.items():
            if pin in by_pin:
                raise ValueError(f"GPIO{pin} is assigned twice: {by_pin[pin]} and {name}")
            by_pin[pin] = name
        if not 1 <= len(self.seats) <= 8:
            raise ValueError(f"1..8 seats, not {len(self.seats)}")

    def pins(self) -> dict[str, int]:
        """Every assigned pin by a readable name."""
        named = {f"seat {n} go": s.go for n, s in enumerate(self.seats, 1)}
        named.update({f"seat {n} confirm": s.confirm for n, s in enumerate(self.seats, 1)})
        named.update(dealer_next=self.dealer_next, dealer_undo=self.dealer_undo, buzzer=self.buzzer,
                     led_red=self.led_red, led_green=self.led_green, led_blue=self.led_blue)
        return named

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> HardwareConfig:
        """From a config section, e.g. {"seats": [[5, 6], [13, 19]], "buzzer": 18}; unknown keys fail."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown hardware settings: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "seats" in values:
            try:
                values["seats"] = tuple(SeatPins(int(go), int(confirm)) for go, confirm in values["seats"])
            except (TypeError, ValueError) as exc:
                raise ValueError(f"seats must be a list of [go, confirm] pin pairs: {exc}") from None
        return cls(**values)
