"""What the strip shows at a moment: the held state, drawn, animated and dimmed."""

import animations
import board
import pegproto

DEFAULT_BRIGHTNESS = 64


def is_animated(state, link_lost):
    """True when the frame changes with time (the loop must redraw it periodically)."""
    return state is None or link_lost or state[0] != pegproto.MODE_NORMAL


def render(geometry, state, link_lost, t_ms):
    """A full frame: list of (r, g, b), one per LED. state is a decoded STATE (or None before the first)."""
    pixels = [board.OFF] * geometry.led_count
    if state is None:
        animations.idle(geometry, pixels, t_ms)
        board.apply_brightness(pixels, DEFAULT_BRIGHTNESS)
        return pixels
    mode, mode_track, brightness, tracks = state
    board.draw_pegs(geometry, tracks, pixels)
    if mode == pegproto.MODE_WIN:
        animations.win(geometry, pixels, mode_track, tracks[mode_track][2], t_ms)
    elif mode == pegproto.MODE_SKUNK:
        animations.skunk(geometry, pixels, mode_track, tracks[mode_track][2], t_ms)
    elif mode == pegproto.MODE_ILLEGAL:
        animations.illegal(pixels, t_ms)
    elif mode == pegproto.MODE_IDLE:
        animations.idle(geometry, pixels, t_ms)
    if link_lost:
        animations.link_lost(geometry, pixels, t_ms)
    board.apply_brightness(pixels, brightness)
    return pixels
