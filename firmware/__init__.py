"""The peg board's MicroPython firmware, carried in the cardtable package so that any install (a wheel,
pipx, a checkout) can flash it and run it on the virtual board (controller/pegboard/firmware_source.py).

Its modules import each other by top-level name, as on the board, so the host never imports them as
`firmware.<name>`; this file is not flashed."""
