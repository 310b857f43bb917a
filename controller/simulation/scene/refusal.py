"""Whether an engine refuses an event now, asked without changing the game: the players' mistakes must
be ones the table refuses."""
from __future__ import annotations

import copy

from controller.engine import Engine, Event, IllegalEvent


def refused(game: Engine, event: Event) -> bool:
    try:
        copy.deepcopy(game).apply(event)
    except IllegalEvent:
        return True
    return False
