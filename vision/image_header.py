"""What an image file says about itself before it is decoded: its size (PNG, JPEG, BMP) and whether a JPEG
is whole.

A 370-byte PNG can claim 10^10 pixels; decoding it first and checking afterwards is too late (OpenCV
allocates, or fails with its own error). A JPEG cut short decodes with a grey lower part and only a
libjpeg warning on stderr, so its end marker is checked instead.
"""
from __future__ import annotations

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_START = b"\xff\xd8"
JPEG_END = b"\xff\xd9"
# JPEG start-of-frame markers (baseline, progressive, lossless...); C4, C8 and CC are other segments
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def encoded_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a PNG, JPEG or BMP; None for another format or a header too
    short to say."""
    if data.startswith(PNG_SIGNATURE) and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(JPEG_START):
        return _jpeg_size(data)
    if data.startswith(b"BM") and len(data) >= 26:
        width = int.from_bytes(data[18:22], "little", signed=True)
        height = int.from_bytes(data[22:26], "little", signed=True)  # negative: rows stored top-down
        return abs(width), abs(height)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None  # not a marker where one must be: a damaged header
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte before a marker
            at += 1
            continue
        if marker in _SOF_MARKERS:
            return int.from_bytes(data[at + 7:at + 9], "big"), int.from_bytes(data[at + 5:at + 7], "big")
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return None


def is_truncated_jpeg(data: bytes) -> bool:
    """A JPEG whose end-of-image marker is missing (trailing padding aside): the file was cut short."""
    return data.startswith(JPEG_START) and not data.rstrip(b"\x00\r\n ").endswith(JPEG_END)
