"""Hand histories in the `cardtable-history/1` format: JSON Lines, a header then one event per line."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple, TextIO

from .engine import Event, GameSetup

FORMAT = "cardtable-history/1"
GAMES = ("cribbage", "femkort", "ferbli")


class HistoryError(ValueError):
    """The file itself is unreadable: bad JSON, a missing or bad header. Names the line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


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
        game, players, dealer = data.get("game"), data.get("players"), data.get("dealer")
        if game not in GAMES:
            raise bad(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
            raise bad("players must be a non-empty list of names")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(players):
            raise bad(f"dealer must be a seat 0..{len(players) - 1}, got {dealer!r}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise bad("options must be an object")
        chips = data.get("chips")
        if chips is not None and (not isinstance(chips, list) or len(chips) != len(players)
                                  or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0
                                             for c in chips)):
            raise bad("chips must be null or one non-negative integer per player")
        return cls(game, tuple(players), dealer, options, None if chips is None else tuple(chips))


class HistoryLine(NamedTuple):  # a tuple: thousands are built per journal replay
    number: int  # 1-based line number in the file, counting every line
    event: Event


def _content_lines(stream: Iterable[str]) -> Iterator[tuple[int, Any]]:
    for number, text in enumerate(stream, start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield number, json.loads(stripped)
        except json.JSONDecodeError as error:
            raise HistoryError(number, f"bad JSON: {error.msg} (column {error.colno})") from None


def parse_history(stream: Iterable[str]) -> tuple[Header, list[HistoryLine]]:
    """Read a whole history; raises HistoryError for an unreadable file. Events are not judged here."""
    lines = _content_lines(stream)
    first = next(lines, None)
    if first is None:
        raise HistoryError(1, "empty file: no header")
    header = Header.from_json(first[1], first[0])
    events: list[HistoryLine] = []
    for number, data in lines:
        if not isinstance(data, dict):
            raise HistoryError(number, "each event must be a JSON object")
        events.append(HistoryLine(number, data))
    return header, events


def read_history(path: str | Path) -> tuple[Header, list[HistoryLine]]:
    try:
        with open(path, encoding="utf-8") as stream:
            return parse_history(stream)
    except (OSError, UnicodeDecodeError) as error:
        raise HistoryError(0, f"cannot read {path}: {error}") from None


def write_history(out: TextIO, header: Header, events: Iterable[Event]) -> None:
    out.write(json.dumps(header.to_json(), ensure_ascii=False) + "\n")
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
