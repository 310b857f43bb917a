"""BoardState: validation and wire encoding (the pegs themselves come from the engine: test_table_session)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.pegboard import pegproto
from controller.pegboard.state import BoardState, Mode, Track

COLOURS = [(255, 0, 0), (0, 0, 255)]


@pytest.mark.parametrize("kwargs", [
    {"tracks": (Track((1, 2, 3), 5, 6),)},
    {"tracks": (Track((1, 2, 3), 122, 0),)},
    {"tracks": (Track((1, 2, 300)),)},
    {"tracks": ()},
    {"tracks": (Track((1, 2, 3)),), "brightness": 256},
    {"tracks": (Track((1, 2, 3)),), "mode": Mode.WIN},
    {"tracks": (Track((1, 2, 3)),), "mode": Mode.WIN, "mode_track": 1},
    {"tracks": (Track((1, 2, 3)),), "mode_track": 0},
    {"tracks": (Track((1, 2, 3)),), "target": 100},
])
def test_invalid_states_are_refused(kwargs):
    with pytest.raises(ValueError):
        BoardState(**kwargs)


@st.composite
def board_states(draw: st.DrawFn) -> BoardState:
    target = draw(st.sampled_from([61, 121]))
    tracks = []
    for colour in COLOURS:
        front = draw(st.integers(0, target))
        tracks.append(Track(colour, front, draw(st.integers(0, front))))
    winner = draw(st.none() | st.integers(0, len(tracks) - 1))
    mode = Mode.NORMAL if winner is None else draw(st.sampled_from([Mode.WIN, Mode.SKUNK]))
    return BoardState(tuple(tracks), target, mode=mode, mode_track=winner, brightness=draw(st.integers(0, 255)))


@given(board_states())
def test_any_state_encodes_to_a_body_the_firmware_accepts(s):
    mode, mode_track, brightness, tracks = pegproto.decode_state(s.encode())
    assert (mode, brightness) == (s.mode, s.brightness)
    assert mode_track == (pegproto.NO_TRACK if s.mode_track is None else s.mode_track)
    assert tracks == [(t.front, t.back, t.colour) for t in s.tracks]
    assert len(pegproto.encode_frame(pegproto.MSG_STATE, 0, s.encode())) <= 40
