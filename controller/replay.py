"""`cardtable replay`: judge every event of a hand history and report per event, then a summary."""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from .engine import IllegalEvent, SetupError, effects_json
from .event_fields import unknown_fields
from .games import new_game
from .history import Header, HistoryError, HistoryLine


def replay(header: Header, lines: Iterable[HistoryLine]) -> Iterator[dict[str, Any]]:
    """Yield one result object per event line as it is judged, then the summary. Rejected events change
    nothing. `lines` may be a stream (stream_history): nothing is kept of an event once it is judged."""
    try:
        engine = new_game(header)
    except SetupError as error:
        raise HistoryError(1, f"bad header: {error}") from None
    for line in lines:
        refused = unknown_fields(header.game, line.event)
        if refused is not None:
            yield {"n": line.number, "ok": False, "error": refused}
            continue
        try:
            effects = engine.apply(line.event)
        except IllegalEvent as error:
            yield {"n": line.number, "ok": False, "error": str(error)}
        else:
            yield {"n": line.number, "ok": True, "effects": effects_json(effects)}
    yield {"type": "summary", "game": header.game, **engine.summary()}
