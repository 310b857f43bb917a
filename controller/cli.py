"""The `cardtable` command line.

Each feature module contributes its own subcommands through a `register(subparsers)` function, so the
CLI stays a thin dispatcher and every command lives next to the code it drives.

`main` is the one error boundary of every command. Bad input (ValueError and its kinds: a history,
card, calibration or output path the command refuses) and a file the system will not let it read or
write (OSError) are one line naming what was wrong, exit 2. Anything else is a bug: one line saying
where the traceback was logged, exit 1 (`cardtable --debug ...` raises it instead). A reader that goes
away (`| head`) ends the command quietly.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from .arguments import OneLineParser

# Modules that contribute subcommands, with the command names each registers: each defines
# `register(subparsers) -> None` and sets `func` on its parsers (called with the parsed namespace, returning
# an exit code). Only the module of the command being run is imported: the vision commands bring OpenCV,
# numpy and ONNX Runtime, 60 MB and a second or more before a replay could read its first line.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "controller.commands.replay": ("replay",),
    "controller.commands.session": ("session",),
    "vision.cli": ("vision",),
    "controller.commands.ferbli": ("ferbli",),
    "controller.commands.cribbage_stats": ("stats", "advise"),
    "controller.commands.firmware": ("firmware",),
    "controller.commands.demo": ("demo",),
    "controller.commands.config": ("config", "console-pin"),
    "controller.commands.history": ("history",),
    "controller.commands.run": ("run",),
    "controller.commands.hall": ("hall",),
    "controller.commands.install": ("install-service",),
}

EXIT_BAD_INPUT = 2
EXIT_BUG = 1
EXIT_INTERRUPTED = 128 + 2
LOG_ENV = "CARDTABLE_ERROR_LOG"  # where unexpected errors' tracebacks go (default: error_log_path())


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of `command`'s module when it names one."""
    parser = OneLineParser(prog="cardtable", description="Smart card table controller")
    parser.add_argument("--debug", action="store_true", help="show the Python traceback of an unexpected error")
    # the installed distribution's own metadata: the version is written once, in pyproject.toml
    parser.add_argument("--version", action="version", version=f"cardtable {metadata.version('cardtable')}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = [module for module, names in COMMAND_MODULES.items() if command in names]
    for module_name in wanted or COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    _name_commands(parser)
    return parser


def _name_commands(parser: argparse.ArgumentParser) -> None:
    """Give every (sub)command's namespace its full name ("cardtable vision detect") for its messages."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(command_name=sub.prog)
                if not any("--debug" in a.option_strings for a in sub._actions):  # also after the command
                    sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                     help=argparse.SUPPRESS)
                _name_commands(sub)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in argv if not word.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    name = getattr(args, "command_name", "cardtable")
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:  # the reader stopped reading (`| head`): its choice, not a failure
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (ValueError, OSError) as error:
        if args.debug:
            raise
        print(f"{name}: error: {describe(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        if args.debug:
            raise
        print(f"{name}: internal error ({type(error).__name__}: {_first_line(error)}); {_log(error)}; "
              f"run with --debug to see it", file=sys.stderr)
        return EXIT_BUG


def describe(error: ValueError | OSError) -> str:
    """The one-line message for an expected failure."""
    if isinstance(error, OSError) and error.strerror:
        where = error.filename if error.filename is not None else "standard output"
        return f"cannot use {where}: {error.strerror}"
    return _first_line(error)


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:500]


def error_log_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(os.environ.get(LOG_ENV) or Path(state) / "cardtable" / "errors.log")


def _log(error: BaseException) -> str:
    """Append the traceback to the error log; say where it went (or that it could not be kept)."""
    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"--- {datetime.now(timezone.utc).isoformat()} cardtable {' '.join(sys.argv[1:])}\n")
            log.write("".join(traceback.format_exception(error)))
    except OSError as log_error:
        return f"the traceback could not be logged ({log_error.strerror}: {path})"
    return f"traceback logged in {path}"


def _silence_stdout() -> None:
    """The reader has gone: point stdout at /dev/null so the interpreter's final flush cannot fail too."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file descriptor (captured in tests): nothing to flush
        pass


if __name__ == "__main__":
    sys.exit(main())
