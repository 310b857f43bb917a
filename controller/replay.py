"""`cardtable replay`: judge every event of a hand history and report per event, then a summary."""
from __future__ import annotations

from typing import Any, Iterator

from .engine import IllegalEvent, SetupError, effects_json
from .games import new_game
from .history import Header, HistoryError, HistoryLine


def replay(header: Header, lines: list[HistoryLine]) -> Iterator[dict[str, Any]]:
    """Yield one result object per event line, then the summary. Rejected events change nothing."""
    try:
        engine = new_game(header)
    except SetupError as error:
        raise HistoryError(1, f"bad header: {error}") from None
    for line in lines:
        try:
            effects = engine.apply(line.event)
        except IllegalEvent as error:
            yield {"n": line.number, "ok": False, "error": str(error)}
        else:
            yield {"n": line.number, "ok": True, "effects": effects_json(effects)}
    yield {"type": "summary", "game": header.game, **engine.summary()}
