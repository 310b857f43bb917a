"""Peg board firmware entry point (runs at boot on the RP2040)."""

import micropython

micropython.kbd_intr(-1)  # a 0x03 byte on the USB link must not stop the program

import machine  # noqa: E402  (after kbd_intr on purpose)
import neopixel  # noqa: E402
import os  # noqa: E402

import app  # noqa: E402
import board  # noqa: E402
import pegcfg  # noqa: E402
import transport  # noqa: E402


def open_port():
    if pegcfg.LINK == "uart":
        return transport.UartPort(pegcfg.UART_ID, pegcfg.UART_TX, pegcfg.UART_RX, pegcfg.BAUDRATE)
    return transport.UsbPort()


def main():
    geometry = board.Geometry(**pegcfg.GEOMETRY)
    strip = neopixel.NeoPixel(machine.Pin(pegcfg.LED_PIN), geometry.led_count)
    boot_id = (os.urandom(1)[0] << 8) | os.urandom(1)[0]
    app.App(geometry, strip, open_port(), boot_id).run()
    micropython.kbd_intr(3)  # released by the Pi: back to a REPL that mpremote can drive


main()
