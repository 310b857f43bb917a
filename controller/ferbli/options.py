"""Färbeln's typed options (header `options`), with the project's defaults for the rule gaps.

* `min`, `max` (required): the bounds of every stake, bet and raise (FB-R3).
* `table_stakes` (FB-R39, GAP-FB-11): "all_in" (default) — a player who cannot cover a payment pays what
  he has and stays in for the side pots he reached, as in poker table stakes, which is what the rules'
  source recommends (RULES.md); "must_fold" — the historical reading: a payment you cannot cover is illegal, you fold.
* `mus_min` (GAP-FB-4): the smallest mus, default 1 (the source sets no lower bound).
* `efterhand_buys` (GAP-FB-7): whether efterhand buys after his own raise, default true.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..engine import SetupError
from ..options import parse_options

TableStakes = Literal["all_in", "must_fold"]


@dataclass(frozen=True)
class FerbliOptions:
    min: int
    max: int
    table_stakes: TableStakes = "all_in"
    mus_min: int = 1
    efterhand_buys: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.min <= self.max:
            raise ValueError(f"need 1 <= min <= max, got min {self.min}, max {self.max}")
        if self.mus_min < 1:
            raise ValueError(f"mus_min must be at least 1, got {self.mus_min}")

    @property
    def all_in(self) -> bool:
        return self.table_stakes == "all_in"

    @property
    def reserve(self) -> int:
        """The fewest chips that let a seat play a deal: 1 with all-in, a whole minimum stake otherwise."""
        return 1 if self.all_in else self.min


def parse_ferbli_options(raw: dict[str, Any] | None) -> FerbliOptions:
    missing = [name for name in ("min", "max") if name not in (raw or {})]
    if missing:
        raise SetupError(f"ferbli needs the option(s) {', '.join(missing)} (the stake bounds, FB-R3)")
    return parse_options(FerbliOptions, raw)
