"""Firmware logic under CPython: geometry, drawing, animations, the board's link end and its loop."""
import random

import pytest

from controller.pegboard import pegproto as p
from controller.pegboard.virtual import ListStrip, load_firmware

fw = load_firmware()
Geometry = fw["board"].Geometry
RED, BLUE, GREEN = (200, 0, 0), (0, 0, 200), (0, 160, 0)


def test_track_order_serpentine_mapping():
    g = Geometry(tracks=2, holes=121, order="track", serpentine=True)
    assert g.led_count == 244
    assert [g.led(0, h) for h in (0, 1, 30, 121)] == [0, 1, 30, 121]
    # the strip folds back: track 1 runs from its hole 121 (LED 122) down to its start hole (LED 243)
    assert [g.led(1, h) for h in (121, 120, 1, 0)] == [122, 123, 242, 243]
    straight = Geometry(tracks=2, order="track", serpentine=False)
    assert [straight.led(1, h) for h in (0, 1, 121)] == [122, 123, 243]


def test_row_order_mapping_covers_every_led_once():
    g = Geometry(tracks=3, holes=121, row=30, order="row", serpentine=True)
    indices = sorted(g.led(t, h) for t in range(3) for h in range(122))
    assert indices == list(range(366))
    # start holes first (segment 0), then row 1 of track 0 backwards, of track 1 forwards, ...
    assert [g.led(t, 0) for t in range(3)] == [0, 1, 2]
    assert [g.led(0, 30), g.led(0, 1)] == [3, 32]
    assert [g.led(1, 1), g.led(1, 30)] == [33, 62]
    assert [g.led(2, 30), g.led(2, 1)] == [63, 92]
    assert g.led(0, 121) == 3 + 12 * 30  # last row: one hole per track, segments 13, 14, 15
    assert g.led(2, 121) == 365


def test_geometry_rejects_bad_config_and_holes():
    for kwargs in ({"tracks": 0}, {"holes": 100}, {"row": 0}, {"order": "zigzag"}):
        with pytest.raises(ValueError):
            Geometry(**kwargs)
    with pytest.raises(ValueError):
        Geometry().led(2, 0)
    with pytest.raises(ValueError):
        Geometry().led(0, 122)


def test_skunk_lines():
    assert Geometry(holes=121).skunk_lines == (90, 60)
    assert Geometry(holes=61).skunk_lines == (30,)


def _state(mode=p.MODE_NORMAL, mode_track=p.NO_TRACK, brightness=255, tracks=None):
    return (mode, mode_track, brightness, tracks or [(41, 29, RED), (0, 0, BLUE)])


def test_render_normal_state_exact_pixels():
    g = Geometry()
    pixels = fw["scene"].render(g, _state(), False, 0)
    expected = [(0, 0, 0)] * 244
    for t in range(2):
        for hole in (60, 61, 90, 91):
            expected[g.led(t, hole)] = fw["board"].MARKER
    expected[g.led(0, 29)] = (50, 0, 0)  # back peg at a quarter
    expected[g.led(0, 41)] = RED
    expected[g.led(1, 0)] = BLUE  # both pegs in the start hole: the front one shows
    assert pixels == expected


def test_render_brightness_scales_every_led():
    g = Geometry()
    full = fw["scene"].render(g, _state(), False, 0)
    dim = fw["scene"].render(g, _state(brightness=51), False, 0)
    assert dim == [(r * 51 // 255, gr * 51 // 255, b * 51 // 255) for r, gr, b in full]
    assert dim[g.led(0, 41)] == (40, 0, 0)


def test_animations_at_frozen_times():
    g = Geometry()
    render = fw["scene"].render
    normal = render(g, _state(), False, 0)
    # illegal play: all red in the first 125 ms, the plain board in the next
    assert set(render(g, _state(p.MODE_ILLEGAL), False, 0)) == {(255, 0, 0)}
    assert render(g, _state(p.MODE_ILLEGAL), False, 130) == normal
    # win: a 5-LED band of the winner's colour along track 0, head at hole t/40 ms
    win = render(g, _state(p.MODE_WIN, 0), False, 40 * 50)
    assert [win[g.led(0, h)] for h in range(46, 51)] == [RED] * 5
    assert win[g.led(0, 45)] == normal[g.led(0, 45)] and win[g.led(1, 0)] == BLUE
    # skunk: the win run plus white skunk lines in the "on" half-period
    sk = render(g, _state(p.MODE_SKUNK, 0), False, 0)
    assert all(sk[g.led(t, h)] == (255, 255, 255) for t in range(2) for h in (60, 61, 90, 91))
    # link lost: start holes blink amber, pegs stay
    lost = render(g, _state(), True, 0)
    assert lost[g.led(0, 0)] == (255, 100, 0) and lost[g.led(0, 41)] == RED
    assert render(g, _state(), True, 600) == normal
    assert fw["scene"].is_animated(_state(), True) and not fw["scene"].is_animated(_state(), False)


def _decode_reply(frame):
    ((msg_type, seq, body),) = p.FrameReader().feed(frame)
    assert msg_type == p.MSG_ACK
    return seq, p.decode_ack(body)


def test_board_link_answers_hello_state_ping_and_unknown():
    link = fw["boardlink"].BoardLink(Geometry(), 0xABCD)
    seq, ack = _decode_reply(link.handle(p.MSG_HELLO, 5, bytes([p.PROTOCOL_VERSION]), 0))
    assert seq == 5 and ack.status == p.STATUS_OK and ack.info == (1, 1, 0, 2, 121)
    assert (ack.sync.boot_id, ack.sync.has_state) == (0xABCD, False)
    assert _decode_reply(link.handle(p.MSG_HELLO, 6, b"\x63", 0))[1].status == p.STATUS_BAD_VERSION
    body = p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 64, [(10, 4, RED), (3, 0, BLUE)])
    _, ack = _decode_reply(link.handle(p.MSG_STATE, 7, body, 0))
    assert ack.status == p.STATUS_OK and ack.sync.shows(body)
    assert link.state == p.decode_state(body) and link.state_changes == 1
    link.handle(p.MSG_STATE, 8, body, 0)  # a repeated frame is harmless
    assert link.state_changes == 1
    assert _decode_reply(link.handle(p.MSG_PING, 9, b"", 0))[1].sync.shows(body)
    assert _decode_reply(link.handle(0x42, 10, b"", 0))[1].status == p.STATUS_BAD_TYPE
    assert _decode_reply(link.handle(p.MSG_RELEASE, 11, b"REPX", 0))[1].status == p.STATUS_BAD_BODY
    assert not link.released
    assert _decode_reply(link.handle(p.MSG_RELEASE, 12, p.RELEASE_MAGIC, 0))[1].status == p.STATUS_OK
    assert link.released


@pytest.mark.parametrize("body", [
    p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 64, [(1, 0, RED)] * 3),  # 3 tracks on a 2-track board
    p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 64, [(122, 0, RED)]),  # beyond hole 121
    b"\x00\x01",
])
def test_board_link_rejects_bad_state_and_keeps_the_old_one(body):
    link = fw["boardlink"].BoardLink(Geometry(), 1)
    good = p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 64, [(10, 4, RED)])
    link.handle(p.MSG_STATE, 1, good, 0)
    _, ack = _decode_reply(link.handle(p.MSG_STATE, 2, body, 0))
    assert ack.status == p.STATUS_BAD_BODY and ack.sync.shows(good)
    assert link.state == p.decode_state(good)


class ScriptedPort:
    """A byte port whose input the test feeds; collects what the firmware writes."""

    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()

    def wait(self, ms):
        return bool(self.inbox)

    def read(self):
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data):
        self.sent += data


def _app(now):
    g = Geometry()
    strip, port = ListStrip(g.led_count), ScriptedPort()
    return g, strip, port, fw["app"].App(g, strip, port, 0x1234, clock=lambda: now[0])


def test_app_beats_at_boot_draws_state_and_shows_link_lost():
    now = [1000]
    g, strip, port, app = _app(now)
    app.poll(0)
    ((msg_type, _seq, body),) = p.FrameReader().feed(port.sent)
    assert msg_type == p.MSG_BEAT and p.decode_beat(body).boot_id == 0x1234
    assert strip.shown[g.led(0, (1000 // 60) % 122)] != (0, 0, 0)  # idle dot before any state
    state = p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 255, [(10, 4, RED), (3, 0, BLUE)])
    port.sent.clear()
    port.inbox += p.encode_frame(p.MSG_STATE, 3, state)
    app.poll(0)
    assert _decode_reply(bytes(port.sent))[1].status == p.STATUS_OK
    expected = fw["scene"].render(g, p.decode_state(state), False, 0)
    assert strip.shown == expected
    now[0] += 3001 + 1000 - 1000 % 1000  # silent past the 3 s timeout, in an "on" half-second
    app.poll(0)
    assert strip.shown == fw["scene"].render(g, p.decode_state(state), True, now[0])
    assert strip.shown[g.led(0, 0)] == (255, 100, 0)
    port.inbox += p.encode_frame(p.MSG_PING, 4)
    app.poll(0)
    assert strip.shown == expected


def test_app_survives_garbage_and_still_answers():
    now = [0]
    g, strip, port, app = _app(now)
    rng = random.Random(5)
    for _ in range(300):
        port.inbox += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        app.poll(0)
        now[0] += 7
    assert app.errors == 0 and app.garbage_frames > 0
    port.sent.clear()
    port.inbox += b"\x00" + p.encode_frame(p.MSG_PING, 77)
    app.poll(0)
    replies = [f for f in p.FrameReader().feed(port.sent) if f[0] == p.MSG_ACK]
    assert [f[1] for f in replies] == [77]


def test_app_run_counts_a_failing_pass_and_keeps_going():
    now = [0]
    g, strip, port, app = _app(now)
    passes = []

    def broken_strip_write():
        raise RuntimeError("strip glitch")

    def three_passes_a_frame_apart():
        passes.append(1)
        now[0] += 50
        return len(passes) <= 3

    strip.write = broken_strip_write
    app.run(keep_running=three_passes_a_frame_apart)
    assert app.errors == 3
