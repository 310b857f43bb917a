"""Stand-in for MicroPython's `micropython` module: records kbd_intr calls."""

kbd_intr_calls: list[int] = []


def kbd_intr(chr_code: int) -> None:
    kbd_intr_calls.append(chr_code)
