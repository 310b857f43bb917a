"""The link's byte ports on the RP2040 (MicroPython only): USB CDC or a UART."""

import select
import sys

_READ_CHUNK = 64


class UsbPort:
    """The USB CDC console as a raw byte port (main.py disables Ctrl-C on it first)."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def wait(self, ms):
        return bool(self._poll.poll(ms))

    def read(self):
        data = bytearray()
        while len(data) < _READ_CHUNK and self._poll.poll(0):
            data.extend(self._in.read(1))  # read(n) blocks until n bytes: take one at a time
        return data

    def write(self, data):
        self._out.write(data)


class UartPort:
    """A hardware UART (the Pi's GPIO header serial port)."""

    def __init__(self, uart_id, tx, rx, baudrate):
        import machine

        self._uart = machine.UART(uart_id, baudrate=baudrate, tx=machine.Pin(tx), rx=machine.Pin(rx),
                                  rxbuf=256)
        self._poll = select.poll()
        self._poll.register(self._uart, select.POLLIN)

    def wait(self, ms):
        return bool(self._poll.poll(ms))

    def read(self):
        return self._uart.read(_READ_CHUNK) or b""

    def write(self, data):
        self._uart.write(data)
