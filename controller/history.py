"""Hand histories in the `cardtable-history/1` format: JSON Lines, a header then one event per line."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple, TextIO

from .engine import Event, GameSetup
from .jsonlines import JsonLineError, bounded_lines, json_lines

FORMAT = "cardtable-history/1"
GAMES = ("cribbage", "femkort", "ferbli")
HEADER_START = f'{{"format": "{FORMAT}"'.encode()  # the first bytes write_history writes
HEADER_FIELDS = frozenset({"format", "game", "players", "dealer", "options", "chips"})


class HistoryError(ValueError):
    """The file itself is unreadable: bad JSON, a missing or bad header. Names the line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


# Chips per seat in a header: far more than any table holds, and sums of them stay exact integers.
MAX_CHIPS = 10 ** 9


@dataclass(frozen=True)
class Header(GameSetup):
    """A history file's first line: the game setup, read from and written to JSON."""

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": list(self.players), "dealer": self.dealer,
                "options": dict(self.options), "chips": None if self.chips is None else list(self.chips)}

    @classmethod
    def from_json(cls, data: Any, line: int = 1) -> Header:
        def bad(message: str) -> HistoryError:
            return HistoryError(line, f"bad header: {message}")

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f"the first object must have \"format\": \"{FORMAT}\"")
        unknown = sorted(data.keys() - HEADER_FIELDS)
        if unknown:  # a misspelt "chisp" would otherwise be silently ignored
            raise bad(f"unknown field(s) {', '.join(map(repr, unknown))} "
                      f"(a header has: {', '.join(sorted(HEADER_FIELDS))})")
        game, players, dealer = data.get("game"), data.get("players"), data.get("dealer")
        if game not in GAMES:
            raise bad(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
            raise bad("players must be a non-empty list of names")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(players):
            raise bad(f"dealer must be a seat 0..{len(players) - 1}, got {dealer!r}")
        options = data.get("options")
        if options is None:  # absent or null: every option at its default
            options = {}
        if not isinstance(options, dict):
            raise bad(f"options must be an object, got {json.dumps(options)[:40]}")
        chips = data.get("chips")
        if chips is not None and (not isinstance(chips, list) or len(chips) != len(players)
                                  or not all(type(c) is int and 0 <= c <= MAX_CHIPS for c in chips)):
            raise bad(f"chips must be null or one integer 0..{MAX_CHIPS:,} per player")
        return cls(game, tuple(players), dealer, options, None if chips is None else tuple(chips))


class HistoryLine(NamedTuple):  # a tuple: thousands are built per journal replay
    number: int  # 1-based line number in the file, counting every line
    event: Event


def stream_history(lines: Iterable[bytes | str]) -> tuple[Header, Iterator[HistoryLine]]:
    """The header, read now, and the events, read as the iterator is consumed (memory stays flat however
    long the file). Raises HistoryError for an unreadable header or, while iterating, an unreadable line.
    Events are not judged here."""
    values = _values(lines)
    first = next(values, None)
    if first is None:
        raise HistoryError(1, "empty file: no header")
    return Header.from_json(first[1], first[0]), _events(values)


def _values(lines: Iterable[bytes | str]) -> Iterator[tuple[int, Any]]:
    try:
        yield from json_lines(lines)
    except JsonLineError as error:
        raise HistoryError(error.line, error.reason) from None


def _events(values: Iterator[tuple[int, Any]]) -> Iterator[HistoryLine]:
    for number, data in values:
        if not isinstance(data, dict):
            raise HistoryError(number, "each event must be a JSON object")
        yield HistoryLine(number, data)


def parse_history(stream: Iterable[bytes | str]) -> tuple[Header, list[HistoryLine]]:
    """Read a whole history; raises HistoryError for an unreadable file. Events are not judged here."""
    header, events = stream_history(stream)
    return header, list(events)


def read_history(path: str | Path) -> tuple[Header, list[HistoryLine]]:
    """A whole history file (tests, benchmarks); `cardtable replay` streams it instead."""
    with open(path, "rb") as stream:
        return parse_history(bounded_lines(stream))


def write_history(out: TextIO, header: Header, events: Iterable[Event]) -> None:
    out.write(json.dumps(header.to_json(), ensure_ascii=False) + "\n")
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
