"""A board's own wiring file, flashed in place of the shipped firmware/pegcfg.py.

An installed package's pegcfg.py is not the place to edit (a reinstall replaces it), so `cardtable firmware
flash --pegcfg FILE` takes a copy of it (`cardtable firmware wiring` prints the shipped one). The file is
read, never run, on the Pi: only `NAME = literal` lines (and comments, a docstring), and every setting the
firmware's main.py reads must be there with the right type, its GEOMETRY one the board accepts, since a
mistake found only at the board's boot leaves a dark strip and no message.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from controller.pegboard.virtual import load_firmware

SETTINGS: dict[str, type] = {"GEOMETRY": dict, "LED_PIN": int, "LINK": str, "UART_ID": int, "UART_TX": int,
                             "UART_RX": int, "BAUDRATE": int}
LINKS = ("usb", "uart")


class WiringError(ValueError):
    """A wiring file the board could not boot with, naming the line or setting."""


def read_wiring(path: Path) -> bytes:
    """The file's bytes, once checked (see the module's doc)."""
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise WiringError(f"--pegcfg {path}: {exc.strerror}") from None
    settings = _settings(path, source)
    for name, kind in SETTINGS.items():
        if type(settings.get(name)) is not kind:  # not isinstance: True is no pin number
            raise WiringError(f"--pegcfg {path}: {name} must be set to a {kind.__name__}"
                              f"{'' if name not in settings else f', not {settings[name]!r}'}")
    if settings["LINK"] not in LINKS:
        raise WiringError(f"--pegcfg {path}: LINK must be one of {', '.join(LINKS)}, not {settings['LINK']!r}")
    try:
        load_firmware()["board"].Geometry(**settings["GEOMETRY"])
    except (TypeError, ValueError) as exc:
        raise WiringError(f"--pegcfg {path}: GEOMETRY: {exc}") from None
    return source


def _settings(path: Path, source: bytes) -> dict[str, Any]:
    try:
        module = ast.parse(source, str(path))
    except (SyntaxError, ValueError) as exc:
        raise WiringError(f"--pegcfg {path}: not Python: {exc}") from None
    settings = {}
    for node in module.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            raise WiringError(f"--pegcfg {path}: line {node.lineno}: only NAME = value lines")
        try:
            settings[node.targets[0].id] = ast.literal_eval(node.value)
        except (ValueError, TypeError, RecursionError):  # what literal_eval raises for a non-literal
            raise WiringError(f"--pegcfg {path}: line {node.lineno}: {node.targets[0].id} must be a plain value "
                              f"(a number, a string, a dict...)") from None
    return settings
