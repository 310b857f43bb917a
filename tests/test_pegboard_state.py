"""BoardState: scores -> pegs (CR-15 leapfrog), wins, skunks, validation, wire encoding."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.pegboard import pegproto
from controller.pegboard.state import BoardState, Mode, Track

COLOURS = [(255, 0, 0), (0, 0, 255)]


def test_back_peg_leapfrogs_the_front_peg():
    s = BoardState.new_game(COLOURS).peg(0, 5).peg(0, 12).peg(1, 2)
    assert s.tracks[0] == Track((255, 0, 0), front=17, back=5)
    assert s.tracks[1] == Track((0, 0, 255), front=2, back=0)
    assert s.mode is Mode.NORMAL and s.winner is None


def test_reaching_121_wins_capped_and_skunk_depends_on_the_loser():
    near = BoardState(tracks=(Track(COLOURS[0], 115, 110), Track(COLOURS[1], 91, 80)))
    won = near.peg(0, 12)
    assert (won.tracks[0].front, won.tracks[0].back) == (121, 115)
    assert (won.mode, won.mode_track, won.winner) == (Mode.WIN, 0, 0)
    skunked = BoardState(tracks=(Track(COLOURS[0], 115, 110), Track(COLOURS[1], 90, 80))).peg(0, 6)
    assert (skunked.mode, skunked.mode_track) == (Mode.SKUNK, 0)
    short = BoardState(tracks=(Track(COLOURS[0], 60, 50), Track(COLOURS[1], 30, 20)), target=61).peg(0, 1)
    assert (short.mode, short.skunk_line) == (Mode.SKUNK, 30)
    with pytest.raises(ValueError, match="over"):
        won.peg(1, 2)


@pytest.mark.parametrize("track, points", [(2, 1), (-1, 1), (0, 0), (0, 30)])
def test_peg_rejects_bad_input(track, points):
    with pytest.raises(ValueError):
        BoardState.new_game(COLOURS).peg(track, points)


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


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 29)), max_size=40))
def test_any_game_encodes_to_a_body_the_firmware_accepts(moves):
    s = BoardState.new_game(COLOURS)
    for track, points in moves:
        if s.winner is None:
            s = s.peg(track, points)
    mode, mode_track, brightness, tracks = pegproto.decode_state(s.encode())
    assert (mode, brightness) == (s.mode, s.brightness)
    assert mode_track == (pegproto.NO_TRACK if s.mode_track is None else s.mode_track)
    assert tracks == [(t.front, t.back, t.colour) for t in s.tracks]
    assert len(pegproto.encode_frame(pegproto.MSG_STATE, 0, s.encode())) <= 40
