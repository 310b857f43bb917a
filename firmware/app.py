"""The board's main loop, independent of the hardware it is given.

strip: NeoPixel-like (item assignment, write()). port: read() -> bytes (never blocks), write(bytes),
wait(ms) -> True when input is waiting. The RP2040 passes a NeoPixel and the USB or UART port; the host's
virtual board passes a list-backed strip and a pty.
"""

import boardlink
import pegproto
import scene

try:
    from time import ticks_add, ticks_diff, ticks_ms  # MicroPython: ticks wrap round
except ImportError:  # CPython: the virtual board and the tests
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b

BEAT_MS = 1000
FRAME_MS = 40  # animation frame period (25 frames/s)


class App:
    def __init__(self, geometry, strip, port, boot_id, clock=ticks_ms):
        self._geometry = geometry
        self._strip = strip
        self._port = port
        self._clock = clock
        self._reader = pegproto.FrameReader()
        self.link = boardlink.BoardLink(geometry, boot_id)
        now = clock()
        self._beat_due = now  # the first beat announces the boot
        self._frame_due = now
        self._drawn = None  # (state changes, link lost) of the last static frame drawn
        self.errors = 0

    @property
    def garbage_frames(self):
        return self._reader.errors

    def poll(self, max_wait_ms=FRAME_MS):
        """One pass: wait for input (bounded), answer frames, send a due heartbeat, redraw if needed."""
        now = self._clock()
        wait = min(max_wait_ms, ticks_diff(self._beat_due, now), ticks_diff(self._frame_due, now))
        if self._port.wait(max(0, wait)):
            for msg_type, seq, body in self._reader.feed(self._port.read()):
                self._port.write(self.link.handle(msg_type, seq, body, self._clock()))
        now = self._clock()
        if ticks_diff(now, self._beat_due) >= 0:
            self._port.write(self.link.beat())
            self._beat_due = ticks_add(now, BEAT_MS)
        self._draw(now)

    def _draw(self, now):
        state = self.link.state
        lost = self.link.link_lost(now, ticks_diff)
        key = None  # static frames are drawn once per change; animated ones every FRAME_MS
        if scene.is_animated(state, lost):
            if ticks_diff(now, self._frame_due) < 0:
                return
            self._frame_due = ticks_add(now, FRAME_MS)
        else:
            key = (self.link.state_changes, lost)
            if key == self._drawn:
                return
            self._frame_due = ticks_add(now, BEAT_MS)  # nothing moves: no need to wake for frames
        pixels = scene.render(self._geometry, state, lost, now)
        for i in range(len(pixels)):
            self._strip[i] = pixels[i]
        self._strip.write()
        self._drawn = key  # only after a good write, so a failed one is retried

    def run(self, keep_running=None):
        """Loop until released to the REPL (or keep_running() is false); a bug on one pass is counted,
        never fatal."""
        while not self.link.released and (keep_running is None or keep_running()):
            try:
                self.poll()
            except Exception:  # the board must keep answering whatever arrives
                self.errors += 1
