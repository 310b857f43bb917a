"""The shared link codec (controller/pegboard/pegproto.py), as both ends run it."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.pegboard import pegproto as p


def test_crc16_is_ccitt_false_check_value():
    # The catalogued check value of CRC-16/CCITT-FALSE over "123456789".
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16(b"") == 0xFFFF


@pytest.mark.parametrize("raw, encoded", [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
])
def test_cobs_matches_published_examples(raw, encoded):
    # Examples from the COBS paper / Wikipedia's table.
    assert p.cobs_encode(raw) == encoded
    assert p.cobs_decode(encoded) == raw


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=40))
def test_frame_round_trip(msg_type, seq, body):
    frame = p.encode_frame(msg_type, seq, body)
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]
    assert p.decode_frame(frame[1:-1]) == (msg_type, seq, body)


@given(st.binary(min_size=1, max_size=30), st.data())
def test_any_single_byte_change_is_rejected(body, data):
    inner = bytearray(p.encode_frame(p.MSG_STATE, 7, body)[1:-1])
    at = data.draw(st.integers(0, len(inner) - 1))
    inner[at] = data.draw(st.integers(1, 255).filter(lambda b: b != inner[at]))
    with pytest.raises(p.FrameError):
        p.decode_frame(bytes(inner))


def test_reader_resynchronises_after_garbage_and_split_input():
    a = p.encode_frame(p.MSG_PING, 1)
    b = p.encode_frame(p.MSG_STATE, 2, b"\x01\x02\x00\x03")
    stream = b"\x13\x37garbage" + a + b"\xff" * 100 + b
    reader = p.FrameReader()
    frames = []
    for i in range(0, len(stream), 3):  # arrives in small pieces
        frames += reader.feed(stream[i:i + 3])
    assert frames == [(p.MSG_PING, 1, b""), (p.MSG_STATE, 2, b"\x01\x02\x00\x03")]
    assert reader.errors == 2  # the garbage run before `a` and the oversized run before `b`


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_reader_never_raises_on_garbage(data):
    reader = p.FrameReader()
    reader.feed(data)
    # and still decodes the next good frame
    assert reader.feed(p.encode_frame(p.MSG_PING, 9)) == [(p.MSG_PING, 9, b"")]


def test_state_round_trip_and_size():
    tracks = [(121, 115, (255, 0, 0)), (90, 80, (0, 255, 0)), (0, 0, (0, 0, 255))]
    body = p.encode_state(p.MODE_SKUNK, 0, 200, tracks)
    assert p.decode_state(body) == (p.MODE_SKUNK, 0, 200, tracks)
    assert len(p.encode_frame(p.MSG_STATE, 255, body)) <= 40


@pytest.mark.parametrize("body, why", [
    (b"\x00\x00", "too short"),
    (bytes([9, 255, 64, 1, 0, 0, 1, 2, 3]), "mode"),
    (bytes([0, 255, 64, 0]), "track count"),
    (bytes([0, 255, 64, 2, 0, 0, 1, 2, 3]), "length"),
    (bytes([0, 255, 64, 1, 5, 6, 1, 2, 3]), "back peg"),
    (bytes([1, 3, 64, 1, 5, 4, 1, 2, 3]), "win"),
])
def test_decode_state_rejects_malformed_bodies(body, why):
    with pytest.raises(p.FrameError):
        p.decode_state(body)


def test_ack_and_beat_round_trip():
    body = p.encode_ack(p.MSG_HELLO, p.STATUS_OK, 0xBEEF, True, 0x1234, (1, 1, 0, 2, 121))
    ack = p.decode_ack(body)
    assert (ack.acked_type, ack.status, ack.info) == (p.MSG_HELLO, p.STATUS_OK, (1, 1, 0, 2, 121))
    assert (ack.sync.boot_id, ack.sync.has_state, ack.sync.digest) == (0xBEEF, True, 0x1234)
    beat = p.decode_beat(p.encode_beat(7, False, 0))
    assert (beat.boot_id, beat.has_state, beat.digest) == (7, False, 0)
    with pytest.raises(p.FrameError):
        p.decode_ack(body[:4])
    with pytest.raises(p.FrameError):
        p.decode_beat(b"\x00")


def test_sync_shows_only_the_exact_state():
    body = p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 64, [(5, 0, (1, 2, 3))])
    assert p.Sync(1, True, p.crc16(body)).shows(body)
    assert not p.Sync(1, False, p.crc16(body)).shows(body)
    assert not p.Sync(1, True, p.crc16(body) ^ 1).shows(body)
