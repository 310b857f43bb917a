"""`cardtable firmware flash|simulate`: deploy the peg board firmware, or run it on a virtual board."""
from __future__ import annotations

import argparse
import importlib.util
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import serial

from controller.pegboard.firmware_source import codec_source, firmware_folder, firmware_sources
from controller.pegboard.link import release_to_repl
from controller.pegboard.virtual import VirtualPegBoard, check_link_path
from controller.pegboard.wiring import read_wiring

RP2040_VID = 0x2E8A  # Raspberry Pi's USB vendor id: MicroPython on an RP2040 enumerates with it


class FirmwareError(ValueError):
    """A clear reason why the firmware cannot be deployed."""


def firmware_files(folder: Traversable | None = None) -> list[Traversable]:
    """Every file the board needs: the firmware package's modules plus the shared link codec."""
    folder = firmware_folder() if folder is None else folder
    sources = firmware_sources(folder)
    if not any(s.name == "main.py" for s in sources):
        raise FirmwareError(f"no firmware main.py in {folder}: reinstall cardtable")
    return sources + [codec_source()]


def find_board_port(ports: Iterable[Any]) -> str:
    """The device of the one attached RP2040 among serial.tools.list_ports entries."""
    boards = [p.device for p in ports if getattr(p, "vid", None) == RP2040_VID]
    if not boards:
        raise FirmwareError("no RP2040 board found (USB vendor id 2e8a): plug it in or pass --port")
    if len(boards) > 1:
        raise FirmwareError(f"several RP2040 boards found ({', '.join(boards)}): choose one with --port")
    return boards[0]


def mpremote_command() -> list[str]:
    if shutil.which("mpremote"):
        return ["mpremote"]
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    raise FirmwareError("mpremote is not installed: pip install 'cardtable[firmware]'")


def flash_command(mpremote: list[str], port: str, files: list[Path]) -> list[str]:
    """Copy every file to the board's root, then hard-reset it so main.py starts."""
    return [*mpremote, "connect", port, "fs", "cp", *(str(f) for f in files), ":", "+", "reset"]


def _flash(args: argparse.Namespace) -> int:
    # mpremote copies files by path and names each on the board after it: the resources are written out
    # under their own names (an installed package's files need not be files of their own)
    with tempfile.TemporaryDirectory(prefix="cardtable-firmware-") as folder:
        wiring = read_wiring(Path(args.pegcfg)) if args.pegcfg else None
        paths = []
        for source in firmware_files():
            path = Path(folder, source.name)
            path.write_bytes(wiring if wiring is not None and path.name == "pegcfg.py" else source.read_bytes())
            paths.append(path)
        return _flash_files(args, paths)


def _flash_files(args: argparse.Namespace, files: list[Path]) -> int:
    port = args.port or _detect_port()
    command = flash_command(mpremote_command(), port, files)
    try:
        if not release_to_repl(port):
            print("board did not answer the release request (already at the REPL?); trying anyway")
    except (serial.SerialException, OSError) as exc:
        raise FirmwareError(f"cannot open {port}: {exc} (is the cardtable service running?)") from None
    print("flashing:", " ".join(f.name for f in files))
    result = subprocess.run(command, check=False)
    if result.returncode != 0:
        print("cardtable firmware flash: mpremote failed (is the cardtable service holding the port?)",
              file=sys.stderr)
    return result.returncode


def _detect_port() -> str:
    from serial.tools import list_ports

    return find_board_port(list_ports.comports())


def _wiring(args: argparse.Namespace) -> int:
    print(firmware_folder().joinpath("pegcfg.py").read_text(encoding="utf-8"), end="")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    check_link_path(Path(args.link))
    board = VirtualPegBoard({"tracks": args.tracks, "holes": args.holes}, link_path=args.link)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # systemd/kill: remove the link path too
    with board:
        print(f"virtual peg board on {board.port_path} (Ctrl-C to stop)", flush=True)
        try:
            # A timed wait: Ctrl-C landing on one of the board's threads only runs Python's handler once the
            # main thread wakes, so an untimed wait could ignore it for ever (seen under load).
            while not stop.wait(0.2):
                pass
        except KeyboardInterrupt:
            pass
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("firmware", help="peg board firmware")
    commands = parser.add_subparsers(dest="firmware_command", required=True, metavar="ACTION")
    flash = commands.add_parser("flash", help="copy the firmware to the RP2040 with mpremote")
    flash.add_argument("--port", help="serial port of the board (default: the one USB VID 2e8a device)")
    flash.add_argument("--pegcfg", metavar="FILE",
                       help="this board's wiring, flashed as pegcfg.py (default: the shipped one; see wiring)")
    flash.set_defaults(func=_flash)
    wiring = commands.add_parser("wiring", help="print the shipped pegcfg.py, to edit and flash with --pegcfg")
    wiring.set_defaults(func=_wiring)
    simulate = commands.add_parser("simulate", help="run the firmware on a virtual board behind a pty")
    simulate.add_argument("--link", default="/tmp/cardtable-pegboard", help="symlink to the pty to create")
    simulate.add_argument("--tracks", type=int, default=2, choices=(2, 3))
    simulate.add_argument("--holes", type=int, default=121, choices=(61, 121))
    simulate.set_defaults(func=_simulate)
