"""Command-line argument types that refuse bad values when the arguments are read, naming the option.

argparse turns the ArgumentTypeError of a `type=` function into "argument --delay: ..." (exit 2), before
the command starts any work: a NaN delay, a threshold of 0 or a 0x0 size never reach the code.
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn


def number(low: float, high: float = math.inf, *, low_open: bool = False) -> Callable[[str], float]:
    """A finite number from `low` (excluded when `low_open`) to `high`."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        too_low = value <= low if low_open else value < low
        if not math.isfinite(value) or too_low or value > high:
            above = f"above {low:g}" if low_open else f"at least {low:g}"
            upto = "" if high == math.inf else f" and at most {high:g}"
            raise argparse.ArgumentTypeError(f"must be a number {above}{upto}, got {text!r}")
        return value
    return parse


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` to `high`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low or high is not None and value > high:
            upto = "" if high is None else f" to {high}"
            raise argparse.ArgumentTypeError(f"must be a whole number from {low}{upto}, got {text!r}")
        return value
    return parse


class OneLineParser(argparse.ArgumentParser):
    """Argument errors in one line naming the command and the option, as every other bad input is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
