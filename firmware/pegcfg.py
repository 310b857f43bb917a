"""The default board wiring. For another board: `cardtable firmware wiring > pegcfg.py`, edit that copy,
`cardtable firmware flash --pegcfg pegcfg.py` (only NAME = value lines)."""

# Strip layout (see board.Geometry): 2 tracks x (121 holes + start hole) = 244 LEDs.
GEOMETRY = {"tracks": 2, "holes": 121, "row": 30, "order": "track", "serpentine": True}
LED_PIN = 16  # GPIO driving the WS2812 data line
LINK = "usb"  # "usb" (USB CDC, /dev/ttyACM*) or "uart" (the Pi's header UART)
UART_ID = 0
UART_TX = 0
UART_RX = 1
BAUDRATE = 115200
