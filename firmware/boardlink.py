"""The board's end of the link: answers every valid frame, holds the last good state, sends heartbeats."""

import pegproto

LINK_TIMEOUT_MS = 3000  # no valid frame from the Pi for this long: show "link lost"


class BoardLink:
    def __init__(self, geometry, boot_id):
        self._geometry = geometry
        self._boot_id = boot_id & 0xFFFF
        self._seq = 0
        self._digest = 0
        self._last_rx = None
        self.state = None
        self.state_changes = 0
        self.released = False  # the Pi asked for the REPL (to flash new firmware)

    def handle(self, msg_type, seq, body, now_ms):
        """The ACK frame answering one valid frame; applies a good STATE (a repeated one changes nothing)."""
        self._last_rx = now_ms
        info = None
        status = pegproto.STATUS_OK
        if msg_type == pegproto.MSG_HELLO:
            if len(body) != 1 or body[0] != pegproto.PROTOCOL_VERSION:
                status = pegproto.STATUS_BAD_VERSION
            info = (pegproto.PROTOCOL_VERSION, pegproto.FIRMWARE_VERSION[0], pegproto.FIRMWARE_VERSION[1],
                    self._geometry.tracks, self._geometry.holes)
        elif msg_type == pegproto.MSG_STATE:
            status = self._apply_state(body)
        elif msg_type == pegproto.MSG_RELEASE:
            self.released = body == pegproto.RELEASE_MAGIC
            status = pegproto.STATUS_OK if self.released else pegproto.STATUS_BAD_BODY
        elif msg_type != pegproto.MSG_PING:
            status = pegproto.STATUS_BAD_TYPE
        ack = pegproto.encode_ack(msg_type, status, self._boot_id, self.state is not None, self._digest, info)
        return pegproto.encode_frame(pegproto.MSG_ACK, seq, ack)

    def _apply_state(self, body):
        try:
            state = pegproto.decode_state(body)
            self._geometry.check(state)
        except ValueError:  # FrameError is a ValueError too
            return pegproto.STATUS_BAD_BODY
        if state != self.state:  # a repeated frame changes nothing
            self.state = state
            self._digest = pegproto.crc16(body)
            self.state_changes += 1
        return pegproto.STATUS_OK

    def beat(self):
        """The unsolicited heartbeat frame (also announces a fresh boot)."""
        self._seq = (self._seq + 1) & 0xFF
        body = pegproto.encode_beat(self._boot_id, self.state is not None, self._digest)
        return pegproto.encode_frame(pegproto.MSG_BEAT, self._seq, body)

    def link_lost(self, now_ms, ticks_diff):
        """True once the Pi, having talked, has been silent for LINK_TIMEOUT_MS."""
        return self._last_rx is not None and ticks_diff(now_ms, self._last_rx) > LINK_TIMEOUT_MS
