"""The LED peg board: score model -> pegs (state), the serial link (link) and a virtual board (virtual).

The wire codec, `pegproto`, is shared verbatim with the firmware (see firmware/README.md).
"""
