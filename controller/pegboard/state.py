"""What the peg board should show: pegs per track, colours, mode and brightness (pure, immutable)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from controller.pegboard import pegproto

MAX_SCORE_PER_PEG = 29  # the largest single cribbage score (a 29 hand)
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

    @property
    def skunk_line(self) -> int:
        """A loser who stays at or below this score is skunked (90 of 121, 30 of 61)."""
        return self.target - 31

    @property
    def winner(self) -> int | None:
        return next((n for n, t in enumerate(self.tracks) if t.front == self.target), None)

    def peg(self, track: int, points: int) -> BoardState:
        """Score `points` for a track: the back peg jumps ahead of the front peg (CR-15); reaching the
        target wins (capped there), with a skunk when another track is at or below the skunk line."""
        if not 0 <= track < len(self.tracks):
            raise ValueError(f"no track {track}")
        if not 1 <= points <= MAX_SCORE_PER_PEG:
            raise ValueError(f"a score is 1..{MAX_SCORE_PER_PEG} points, not {points}")
        if self.winner is not None:
            raise ValueError("the game is over")
        old = self.tracks[track]
        moved = replace(old, back=old.front, front=min(old.front + points, self.target))
        tracks = self.tracks[:track] + (moved,) + self.tracks[track + 1:]
        if moved.front < self.target:
            return replace(self, tracks=tracks, mode=Mode.NORMAL, mode_track=None)
        skunked = any(t.front <= self.skunk_line for n, t in enumerate(tracks) if n != track)
        return replace(self, tracks=tracks, mode=Mode.SKUNK if skunked else Mode.WIN, mode_track=track)

    def with_mode(self, mode: Mode, track: int | None = None) -> BoardState:
        return replace(self, mode=mode, mode_track=track)

    def with_brightness(self, brightness: int) -> BoardState:
        return replace(self, brightness=brightness)

    def encode(self) -> bytes:
        """The STATE message body (what the board needs to draw everything)."""
        mode_track = pegproto.NO_TRACK if self.mode_track is None else self.mode_track
        return pegproto.encode_state(int(self.mode), mode_track, self.brightness,
                                     [(t.front, t.back, t.colour) for t in self.tracks])
