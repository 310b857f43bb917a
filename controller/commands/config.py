"""`cardtable config check|init` and `cardtable console-pin`: the service's configuration file."""
from __future__ import annotations

import argparse
import getpass
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from ..output_files import write_text_atomically
from ..service.config import DEFAULT_PATH, DEFAULT_TEXT, ConfigError, load_config, with_pin_hash
from ..service.pin import PinError, check_pin, hash_pin


CONFIG_MODE = 0o640  # a new config file: the PIN's hash is no secret to hand out


def cmd_check(args: argparse.Namespace) -> int:
    config = load_config(args.path)
    camera = config.camera
    size = "x".join(map(str, camera.size)) if camera.size else "its own size"
    board = config.pegboard.port if config.pegboard.enabled else "none"
    print(f"{args.path}: good. camera {camera.source} at {size}, game {config.game.name} for "
          f"{len(config.game.players)}, peg board {board}, state in {config.state_directory}, "
          f"console PIN {'set' if config.console.pin_hash else 'not set (console locked)'}")
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    path: Path = args.path
    if path.exists() and not args.force:
        raise ConfigError("", f"{path} exists (--force replaces it)")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, DEFAULT_TEXT, new_mode=CONFIG_MODE)
    print(f"wrote {path}; edit it, then: cardtable config check {path}")
    return 0


def cmd_console_pin(args: argparse.Namespace) -> int:
    path: Path = args.config
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("", f"cannot read {path}: {exc.strerror or exc}") from None
    pin = _read_pin(args.stdin)
    new_text = with_pin_hash(text, hash_pin(pin))
    tomllib.loads(new_text)  # the edit kept the file valid TOML (it raises before anything is written)
    write_text_atomically(path, new_text)  # keeps the file's permissions
    print(f"console PIN set in {path} (restart the service: systemctl restart cardtable)")
    return 0


def _read_pin(from_stdin: bool) -> str:
    if from_stdin:
        return check_pin(sys.stdin.readline().strip())
    pin = check_pin(getpass.getpass("new console PIN: "))
    if getpass.getpass("again: ") != pin:
        raise PinError("the two PINs differ; nothing changed")
    return pin


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Bad input -> one line naming the key at fault, exit status 2, nothing written."""
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except (ConfigError, PinError, tomllib.TOMLDecodeError) as exc:
            print(f"cardtable {args.command}: error: {exc}", file=sys.stderr)
            return 2
    return run


def register(subparsers: argparse._SubParsersAction) -> None:
    config = subparsers.add_parser("config", help="check or create the service's configuration file")
    sub = config.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    p = sub.add_parser("check", help="validate a config file (exit 2 naming the bad key)")
    p.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help=f"default {DEFAULT_PATH}")
    p.set_defaults(func=_guard(cmd_check))
    p = sub.add_parser("init", help="write the default configuration, every setting commented")
    p.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help=f"default {DEFAULT_PATH}")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(func=_guard(cmd_init))

    p = subparsers.add_parser("console-pin", help="set the dealer console's PIN (stored salted and hashed)")
    p.add_argument("--config", type=Path, default=DEFAULT_PATH, help=f"the config file (default {DEFAULT_PATH})")
    p.add_argument("--stdin", action="store_true", help="read the PIN from one line of standard input")
    p.set_defaults(func=_guard(cmd_console_pin))
