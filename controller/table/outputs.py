"""What the table shows after an input: sounds, the status light, the peg board and a panel notice.

All of it is derived from the engine's answers (the engine is the only judge): the board from the
engine's pegs, never from a second copy of the pegging rules.
"""
from __future__ import annotations

from dataclasses import dataclass
from ..cribbage.game import CribbageGame
from ..engine import Judged
from ..hardware.buzzer import Sound
from ..hardware.status_light import LightStatus
from ..pegboard.state import BoardState, Mode, Track
from .holds import Hold

TRACK_COLOURS = ((255, 40, 0), (0, 90, 255), (0, 200, 60))
WAITING_HOLDS = ("unknown", "duplicate")  # the table waits for the dealer, nobody did anything wrong
SECRET_REFUSAL = "the card at the deal reader was refused: the dealer console says why"


@dataclass(frozen=True)
class Outputs:
    sounds: tuple[Sound, ...]
    light: LightStatus
    board: BoardState | None  # cribbage only
    notice: str | None  # what the panel tells the table


def board_state(game: CribbageGame) -> BoardState:
    """The peg board's picture of the engine's pegs, with the win or skunk once the game is won."""
    summary, target = game.summary(), game.target
    tracks = tuple(Track(TRACK_COLOURS[side], min(peg["front"], target), min(peg["back"], target))
                   for side, peg in enumerate(summary["pegs"]))
    winner = summary["winner"]
    if winner is None:
        return BoardState(tracks, target)
    mode = Mode.WIN if summary["skunk"] == "none" else Mode.SKUNK
    return BoardState(tracks, target, mode=mode, mode_track=winner % len(tracks))


def derive_outputs(board: BoardState | None, judged: list[Judged], hold: Hold | None,
                   fanfare: list[Sound], refused_press: str | None, notice: str | None,
                   just_won: bool, secret: bool = False) -> Outputs:
    """`secret`: the input was a card only the deal reader saw; the public notice must not name it."""
    refusals = [SECRET_REFUSAL if secret else entry.error for entry in judged if entry.error is not None]
    wrong = bool(refusals) or refused_press is not None or (hold is not None and hold.reason in ("refused",
                                                                                                  "misplaced"))
    sounds = ([Sound.ILLEGAL] if wrong else []) + fanfare + ([Sound.WIN] if just_won else [])
    if hold is not None and hold.reason == "camera":
        light = LightStatus.OFFLINE
    elif wrong:
        light = LightStatus.ILLEGAL
    elif hold is not None and hold.reason in WAITING_HOLDS:
        light = LightStatus.WAITING
    else:
        light = LightStatus.READY
    if board is not None and wrong:
        board = board.with_mode(Mode.ILLEGAL)  # the board flashes
    text = next(iter(refusals), None) or refused_press or notice or (hold.describe() if hold else None)
    return Outputs(tuple(sounds), light, board, text)
