"""`cardtable install-service [--root DIR] [--force]`: the table service's unit, user and udev rule written
from the package (controller/install/), then the steps left printed. Writing into the system (`/`) needs
root; `--root DIR` writes under DIR instead (an image being prepared, the tests)."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from ..install import install_files, remaining_steps

EXIT_REFUSED = 2


def installed_executable() -> str:
    """The `cardtable` of this installation: beside the interpreter (a venv's bin/), else on the PATH."""
    beside = Path(sys.executable).parent / "cardtable"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("cardtable")
    if found is None:
        raise ValueError("no cardtable executable beside this Python nor on the PATH: install the package "
                         "(pip install) before its service")
    return str(Path(found).resolve())


def cmd_install_service(args: argparse.Namespace) -> int:
    root: Path = args.root
    if root == Path("/") and os.geteuid() != 0:
        print("cardtable install-service: refused: writing /etc needs root: run it with sudo "
              "(or --root DIR to write under DIR)", file=sys.stderr)
        return EXIT_REFUSED
    if not root.is_dir():
        raise ValueError(f"--root {root}: no such folder")
    executable = installed_executable()
    for written in install_files(root, executable, force=args.force):
        print(f"{written.action}: {written.path}")
    print(f"the unit runs {executable}. Left to do, as root{'' if root == Path('/') else f' (in {root})'}:")
    for step in remaining_steps(root, executable):
        print(f"  {step}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("install-service", help="install the table service's systemd unit, its user "
                                                           "and the peg board's udev rule (needs root)")
    parser.add_argument("--root", type=Path, default=Path("/"), help="write under this folder (default /)")
    parser.add_argument("--force", action="store_true", help="replace files there that are not cardtable's")
    parser.set_defaults(func=cmd_install_service)
