"""Board geometry (hole -> LED index) and drawing of pegs, skunk lines and brightness.

Pure code shared by the RP2040 and the host tests: a frame is a list of (r, g, b) tuples, one per LED.
"""

START = 0  # hole 0 is a track's start hole
BACK_PEG_SHARE = 4  # the back peg shows at 1/4 of the track colour
MARKER = (10, 10, 10)  # dim white on both holes beside a skunk line
OFF = (0, 0, 0)


class Geometry:
    """Where each hole's LED sits on the strip.

    tracks: players or partnerships (2 or 3). holes: 121 (or 61 for the short game).
    row: holes per row of the board (30). order: "track" when the strip runs through one track's start hole
    and holes before the next track's; "row" when it starts with every track's start hole, then crosses row
    by row, each row passing every track. serpentine: every other strip segment runs backwards (the strip
    folds back instead of returning along the edge).
    """

    def __init__(self, tracks=2, holes=121, row=30, order="track", serpentine=True):
        if not 1 <= tracks <= 4:
            raise ValueError("tracks must be 1..4")
        if holes not in (61, 121):
            raise ValueError("holes must be 61 or 121")
        if not 1 <= row <= holes:
            raise ValueError("row must be 1..holes")
        if order not in ("track", "row"):
            raise ValueError("order must be 'track' or 'row'")
        self.tracks = tracks
        self.holes = holes
        self.row = row
        self.order = order
        self.serpentine = serpentine
        self.led_count = tracks * (holes + 1)
        # Skunk line after hole L (between L and L + 1): 90|91 and 60|61 on 121 holes, 30|31 on 61.
        self.skunk_lines = tuple(line for line in (holes - 31, holes - 61) if line > 0)
        self._table = self._build_table()

    def _segments(self):
        """Strip segments in wiring order, each a list of (track, hole) in strip direction."""
        if self.order == "track":
            return [[(t, h) for h in range(self.holes + 1)] for t in range(self.tracks)]
        segments = [[(t, START) for t in range(self.tracks)]]
        for first in range(1, self.holes + 1, self.row):
            last = min(first + self.row, self.holes + 1)
            for t in range(self.tracks):
                segments.append([(t, h) for h in range(first, last)])
        return segments

    def _build_table(self):
        table = [[0] * (self.holes + 1) for _ in range(self.tracks)]
        index = 0
        for number, segment in enumerate(self._segments()):
            if self.serpentine and number % 2 == 1:
                segment = segment[::-1]
            for track, hole in segment:
                table[track][hole] = index
                index += 1
        return table

    def led(self, track, hole):
        """LED index of a hole (0 = start hole)."""
        if not 0 <= track < self.tracks or not 0 <= hole <= self.holes:
            raise ValueError("no such hole")
        return self._table[track][hole]

    def track_leds(self, track):
        """LED indices of a track, start hole first."""
        return self._table[track]

    def check(self, state):
        """ValueError when a decoded state does not fit this board."""
        tracks = state[3]
        if len(tracks) > self.tracks:
            raise ValueError("more tracks than the board has")
        for front, _back, _colour in tracks:
            if front > self.holes:
                raise ValueError("peg beyond the last hole")


def scaled(colour, numerator, denominator):
    return (colour[0] * numerator // denominator, colour[1] * numerator // denominator,
            colour[2] * numerator // denominator)


def draw_pegs(geometry, tracks, pixels):
    """Skunk markers, then each track's back peg (dim) and front peg (full colour)."""
    for t in range(geometry.tracks):
        leds = geometry.track_leds(t)
        for line in geometry.skunk_lines:
            pixels[leds[line]] = MARKER
            pixels[leds[line + 1]] = MARKER
    for t in range(len(tracks)):
        front, back, colour = tracks[t]
        leds = geometry.track_leds(t)
        pixels[leds[back]] = scaled(colour, 1, BACK_PEG_SHARE)
        pixels[leds[front]] = colour


def apply_brightness(pixels, brightness):
    """Scale every LED by brightness/255 in place (what the strip will show)."""
    if brightness == 255:
        return
    for i in range(len(pixels)):
        pixels[i] = scaled(pixels[i], brightness, 255)
