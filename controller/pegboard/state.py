"""What the peg board should show: pegs per track, colours, mode and brightness (pure, immutable).

The pegs come from the engine (controller.table.outputs.board_state): this module scores nothing."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from controller.pegboard import pegproto

Colour = tuple[int, int, int]


class Mode(IntEnum):
    NORMAL = pegproto.MODE_NORMAL
    WIN = pegproto.MODE_WIN
    SKUNK = pegproto.MODE_SKUNK
    ILLEGAL = pegproto.MODE_ILLEGAL
    IDLE = pegproto.MODE_IDLE


@dataclass(frozen=True)
class Track:
    """One player's or partnership's two pegs: front = score, back = previous score."""

    colour: Colour
    front: int = 0
    back: int = 0


@dataclass(frozen=True)
class BoardState:
    tracks: tuple[Track, ...]
    target: int = 121
    mode: Mode = Mode.NORMAL
    mode_track: int | None = None
    brightness: int = 64

    def __post_init__(self) -> None:
        if self.target not in (61, 121):
            raise ValueError(f"target must be 61 or 121, not {self.target}")
        if not 1 <= len(self.tracks) <= pegproto.MAX_TRACKS:
            raise ValueError(f"a board has 1..{pegproto.MAX_TRACKS} tracks, not {len(self.tracks)}")
        for number, track in enumerate(self.tracks):
            if not 0 <= track.back <= track.front <= self.target:
                raise ValueError(f"track {number}: need 0 <= back <= front <= {self.target}, got "
                                 f"back={track.back} front={track.front}")
            if len(track.colour) != 3 or not all(0 <= c <= 255 for c in track.colour):
                raise ValueError(f"track {number}: colour must be three 0..255 values, got {track.colour}")
        if not 0 <= self.brightness <= 255:
            raise ValueError(f"brightness must be 0..255, not {self.brightness}")
        needs_track = self.mode in (Mode.WIN, Mode.SKUNK)
        if needs_track != (self.mode_track is not None):
            raise ValueError(f"mode {self.mode.name} {'needs' if needs_track else 'takes no'} track")
        if needs_track and not 0 <= self.mode_track < len(self.tracks):  # type: ignore[operator]
            raise ValueError(f"no track {self.mode_track}")

    @classmethod
    def new_game(cls, colours: list[Colour], target: int = 121, brightness: int = 64) -> BoardState:
        return cls(tuple(Track(tuple(c)) for c in colours), target, brightness=brightness)  # type: ignore[arg-type]

    def with_mode(self, mode: Mode, track: int | None = None) -> BoardState:
        return replace(self, mode=mode, mode_track=track)

    def with_brightness(self, brightness: int) -> BoardState:
        return replace(self, brightness=brightness)

    def encode(self) -> bytes:
        """The STATE message body (what the board needs to draw everything)."""
        mode_track = pegproto.NO_TRACK if self.mode_track is None else self.mode_track
        return pegproto.encode_state(int(self.mode), mode_track, self.brightness,
                                     [(t.front, t.back, t.colour) for t in self.tracks])
