"""Peg board link protocol: the one codec that both ends of the serial link run.

This file is imported by the Pi (CPython, as `controller.pegboard.pegproto`) and copied verbatim onto the
RP2040 by `cardtable firmware flash` (MicroPython, as the top-level module `pegproto`). It therefore uses
only what both interpreters share: no typing, dataclasses, f-strings or keyword arguments to built-ins,
and bytes/bytearray only. Frames are documented in firmware/README.md.

Wire format: 0x00 | COBS( type | seq | body | CRC-16/CCITT-FALSE(type..body), big endian ) | 0x00
"""

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = (1, 0)

# Longest COBS-encoded frame (between delimiters) a reader accepts; longer runs are line noise.
MAX_FRAME = 64
MAX_TRACKS = 4

# Host -> board
MSG_HELLO = 0x01
MSG_STATE = 0x02
MSG_PING = 0x03
MSG_RELEASE = 0x04  # body RELEASE_MAGIC: leave the program for the REPL (before flashing)
# Board -> host
MSG_ACK = 0x81
MSG_BEAT = 0x82

RELEASE_MAGIC = b"REPL"

STATUS_OK = 0
STATUS_BAD_TYPE = 1
STATUS_BAD_BODY = 2
STATUS_BAD_VERSION = 3

MODE_NORMAL = 0
MODE_WIN = 1
MODE_SKUNK = 2
MODE_ILLEGAL = 3
MODE_IDLE = 4
NO_TRACK = 0xFF

_STATE_HEADER = 4  # mode, mode_track, brightness, track count
_TRACK_BYTES = 5  # front, back, r, g, b
_SYNC_BYTES = 5  # boot id (2), flags (1), state digest (2)
FLAG_HAS_STATE = 0x01


class FrameError(ValueError):
    """A frame or message body that is not valid on the link."""


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): table driven, as MicroPython has no zlib."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no 0x00, so 0x00 can delimit frames."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Inverse of cobs_encode for a frame without its delimiters; FrameError when malformed."""
    out = bytearray()
    i = 0
    end_of_data = len(data)
    while i < end_of_data:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        block_end = i + code
        if block_end > end_of_data:
            raise FrameError("COBS block runs past the end of the frame")
        out.extend(data[i + 1:block_end])
        i = block_end
        if code != 0xFF and i < end_of_data:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, body=b""):
    """A complete frame for the line, delimiters included."""
    payload = bytearray((msg_type, seq & 0xFF))
    payload.extend(body)
    crc = crc16(payload)
    payload.append(crc >> 8)
    payload.append(crc & 0xFF)
    return b"\x00" + cobs_encode(payload) + b"\x00"


def decode_frame(encoded):
    """(type, seq, body) from the bytes between two delimiters; FrameError when corrupt."""
    payload = cobs_decode(encoded)
    if len(payload) < 4:
        raise FrameError("frame too short")
    crc = (payload[-2] << 8) | payload[-1]
    if crc16(payload[:-2]) != crc:
        raise FrameError("CRC mismatch")
    return payload[0], payload[1], bytes(payload[2:-2])


class FrameReader:
    """Splits a byte stream into valid frames, dropping garbage and resynchronising on 0x00."""

    def __init__(self, max_frame=MAX_FRAME):
        self._max = max_frame
        self._buf = bytearray()
        self._overflow = False
        self.errors = 0

    def feed(self, data):
        """Bytes in, list of (type, seq, body) out; corrupt or oversized frames are counted, not raised."""
        frames = []
        for byte in data:
            if byte != 0:
                if len(self._buf) < self._max:
                    self._buf.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.errors += 1
            elif self._buf:
                try:
                    frames.append(decode_frame(self._buf))
                except FrameError:
                    self.errors += 1
            self._buf = bytearray()
            self._overflow = False
        return frames


def encode_state(mode, mode_track, brightness, tracks):
    """STATE body. tracks: sequence of (front, back, (r, g, b)) with 0 <= back <= front <= 255."""
    out = bytearray((mode, mode_track, brightness, len(tracks)))
    for front, back, colour in tracks:
        out.append(front)
        out.append(back)
        out.extend(bytes(colour))
    return bytes(out)


def decode_state(body):
    """(mode, mode_track, brightness, [(front, back, (r, g, b)), ...]); FrameError when malformed."""
    if len(body) < _STATE_HEADER:
        raise FrameError("state body too short")
    mode, mode_track, brightness, count = body[0], body[1], body[2], body[3]
    if mode > MODE_IDLE:
        raise FrameError("unknown mode")
    if not 1 <= count <= MAX_TRACKS or len(body) != _STATE_HEADER + count * _TRACK_BYTES:
        raise FrameError("bad track count or body length")
    if mode in (MODE_WIN, MODE_SKUNK) and mode_track >= count:
        raise FrameError("win mode names no track")
    tracks = []
    for i in range(_STATE_HEADER, len(body), _TRACK_BYTES):
        front, back = body[i], body[i + 1]
        if back > front:
            raise FrameError("back peg ahead of front peg")
        tracks.append((front, back, (body[i + 2], body[i + 3], body[i + 4])))
    return mode, mode_track, brightness, tracks


def _encode_sync(boot_id, has_state, digest):
    flags = FLAG_HAS_STATE if has_state else 0
    return bytes((boot_id >> 8 & 0xFF, boot_id & 0xFF, flags, digest >> 8, digest & 0xFF))


class Sync:
    """What the board shows: its boot id (new on every reset) and the digest of the state it holds."""

    def __init__(self, boot_id, has_state, digest):
        self.boot_id = boot_id
        self.has_state = has_state
        self.digest = digest

    def shows(self, state_body):
        """True when the board holds exactly this STATE body."""
        return self.has_state and self.digest == crc16(state_body)


def _decode_sync(body, at):
    if len(body) < at + _SYNC_BYTES:
        raise FrameError("sync fields missing")
    return Sync((body[at] << 8) | body[at + 1], bool(body[at + 2] & FLAG_HAS_STATE),
                (body[at + 3] << 8) | body[at + 4])


class Ack:
    """Decoded ACK body; `info` is (protocol, fw major, fw minor, tracks, holes) for HELLO, else None."""

    def __init__(self, acked_type, status, sync, info):
        self.acked_type = acked_type
        self.status = status
        self.sync = sync
        self.info = info


def encode_ack(acked_type, status, boot_id, has_state, digest, info=None):
    """ACK body: acked type, status, sync fields, and for HELLO the board info."""
    out = bytearray((acked_type, status))
    out.extend(_encode_sync(boot_id, has_state, digest))
    if info is not None:
        out.extend(bytes(info))
    return bytes(out)


def decode_ack(body):
    sync = _decode_sync(body, 2)
    extra = body[2 + _SYNC_BYTES:]
    info = None
    if extra:
        if len(extra) != 5:
            raise FrameError("bad board info length")
        info = tuple(extra)
    return Ack(body[0], body[1], sync, info)


def encode_beat(boot_id, has_state, digest):
    """BEAT body: the board's unsolicited heartbeat, sent every second and at boot."""
    return _encode_sync(boot_id, has_state, digest)


def decode_beat(body):
    if len(body) != _SYNC_BYTES:
        raise FrameError("bad beat length")
    return _decode_sync(body, 0)
