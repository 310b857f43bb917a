"""Animations the board runs by itself: each draws one frame at time t_ms over the drawn pegs.

Pure functions of (geometry, pixels, ..., t_ms), so a test can freeze time and look at a frame.
"""

RED = (255, 0, 0)
AMBER = (255, 100, 0)
WHITE = (255, 255, 255)
WIN_BAND = 5  # LEDs in the band that runs along the winner's track
WIN_STEP_MS = 40
FLASH_MS = 125  # illegal play: 4 Hz red flash
SKUNK_BLINK_MS = 250
LINK_LOST_BLINK_MS = 500
IDLE_STEP_MS = 60


def _on(t_ms, period_ms):
    """True in the first half of each period."""
    return (t_ms // period_ms) % 2 == 0


def win(geometry, pixels, track, colour, t_ms):
    """A band of the winner's colour runs round and round its track."""
    leds = geometry.track_leds(track)
    head = (t_ms // WIN_STEP_MS) % len(leds)
    for k in range(WIN_BAND):
        pixels[leds[(head - k) % len(leds)]] = colour


def skunk(geometry, pixels, track, colour, t_ms):
    """The win run, with the skunk lines blinking white on every track."""
    win(geometry, pixels, track, colour, t_ms)
    if _on(t_ms, SKUNK_BLINK_MS):
        for t in range(geometry.tracks):
            leds = geometry.track_leds(t)
            for line in geometry.skunk_lines:
                pixels[leds[line]] = WHITE
                pixels[leds[line + 1]] = WHITE


def illegal(pixels, t_ms):
    """The whole board flashes red over the pegs."""
    if _on(t_ms, FLASH_MS):
        for i in range(len(pixels)):
            pixels[i] = RED


def link_lost(geometry, pixels, t_ms):
    """The start holes blink amber while the Pi is silent; the pegs stay as they were."""
    if _on(t_ms, LINK_LOST_BLINK_MS):
        for t in range(geometry.tracks):
            pixels[geometry.led(t, 0)] = AMBER


def idle(geometry, pixels, t_ms):
    """A slow dot walks each track (no game, or the host asked for idle)."""
    for t in range(geometry.tracks):
        leds = geometry.track_leds(t)
        pixels[leds[(t_ms // IDLE_STEP_MS) % len(leds)]] = WHITE
