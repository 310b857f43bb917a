"""Stand-in for MicroPython's `machine`: Pin records its id; UART reads and writes a socket that the
test plants in UART_BACKENDS[uart_id] (so select.poll works on it, as on the board)."""

import socket

UART_BACKENDS: dict[int, socket.socket] = {}


class PowerOff(BaseException):
    """Raised by a UART read once the test cuts the power: ends the firmware's endless loop."""


power_off = False


class Pin:
    def __init__(self, pin_id, *args, **kwargs):
        self.id = pin_id


class UART:
    def __init__(self, uart_id, baudrate=9600, tx=None, rx=None, rxbuf=64):
        self.baudrate = baudrate
        self._sock = UART_BACKENDS[uart_id]
        self._sock.setblocking(False)

    def fileno(self):
        return self._sock.fileno()

    def read(self, nbytes=-1):
        if power_off:
            raise PowerOff()
        try:
            return self._sock.recv(nbytes if nbytes > 0 else 4096) or None
        except BlockingIOError:
            return None

    def write(self, data):
        return self._sock.send(data)
