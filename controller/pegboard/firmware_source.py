"""Where the peg board firmware's sources are: the `firmware` package, installed beside this one.

Found through importlib.resources by package name, never by a path relative to this file, so `firmware
flash`, `firmware simulate` and the demo work from a wheel or pipx as well as from a checkout.
"""
from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

FIRMWARE_PACKAGE = "firmware"


def firmware_folder() -> Traversable:
    return resources.files(FIRMWARE_PACKAGE)


def firmware_sources(folder: Traversable | None = None) -> list[Traversable]:
    """The board's own modules, by name (the package's __init__ only carries them: not flashed)."""
    folder = firmware_folder() if folder is None else folder
    return sorted((f for f in folder.iterdir() if f.name.endswith(".py") and f.name != "__init__.py"),
                  key=lambda f: f.name)


def codec_source() -> Traversable:
    """The link codec, the one copy shared by the Pi and the board (flashed as pegproto.py)."""
    return resources.files("controller.pegboard").joinpath("pegproto.py")
