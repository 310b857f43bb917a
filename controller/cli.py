"""The `cardtable` command line.

Each feature module contributes its own subcommands through a `register(subparsers)` function, so the
CLI stays a thin dispatcher and every command lives next to the code it drives.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that contribute subcommands; each defines `register(subparsers) -> None` and sets
# `func` on its parsers (called with the parsed namespace, returning an exit code).
COMMAND_MODULES: tuple[str, ...] = (
    "controller.commands.replay",
    "vision.cli",
    "controller.commands.ferbli",
    "controller.commands.cribbage_stats",
    "controller.commands.firmware",
    "controller.commands.demo",
    "controller.commands.config",
    "controller.commands.history",
    "controller.commands.run",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="Smart card table controller")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
