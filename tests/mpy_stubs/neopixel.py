"""Stand-in for MicroPython's `neopixel`: keeps the buffer and what the last write() sent."""

instances: list["NeoPixel"] = []


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.shown = list(self.buf)
        instances.append(self)

    def __setitem__(self, index, colour):
        self.buf[index] = tuple(colour)

    def __len__(self):
        return self.n

    def write(self):
        self.shown = list(self.buf)
