"""`cardtable replay`: judge every event of a hand history and report per event, then a summary."""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from .engine import Effect, Engine, Event, IllegalEvent, SetupError, effects_json
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
        try:
            effects = judge(engine, header.game, line.event)
        except IllegalEvent as error:
            yield {"n": line.number, "ok": False, "error": str(error)}
        else:
            yield {"n": line.number, "ok": True, "effects": effects_json(effects)}
    yield summary_line(engine, header)


def judge(engine: Engine, game: str, event: Event) -> list[Effect]:
    """One event judged as the replay judges it (the table session too): a field the game's events do not
    have is refused before the engine sees it; IllegalEvent leaves the engine as it was."""
    refused = unknown_fields(game, event)
    if refused is not None:
        raise IllegalEvent(refused)
    return engine.apply(event)


def summary_line(engine: Engine, header: Header) -> dict[str, Any]:
    """The last line of a replay: the game and the engine's summary."""
    return {"type": "summary", "game": header.game, **engine.summary()}
