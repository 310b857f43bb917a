"""`cardtable hall --config hall.toml`: the club evening's board (web_panel/hall/), served by waitress;
`cardtable hall new-evening` closes tonight's evening (its standings and games stay, on the board's past
evenings) and starts the next, whether the hall runs or not (a running hall shows it within a second);
`cardtable hall evenings` lists them."""
from __future__ import annotations

import argparse
import logging
import signal
import sqlite3
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..service.config import ConfigError

if TYPE_CHECKING:
    from web_panel.hall.config import HallConfig
    from web_panel.hall.store import HallStore

DEFAULT_PATH = Path("/etc/cardtable/hall.toml")


def cmd_hall(args: argparse.Namespace) -> int:
    """0 after SIGTERM/SIGINT; 2 for a config refused (naming the key); 1 when the database or the port
    cannot be had."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from web_panel.hall.config import load_hall_config
    from web_panel.hall.store import StoreError

    try:
        config = load_hall_config(args.config)
    except ConfigError as error:
        print(f"cardtable hall: refused: {args.config}: {error}", file=sys.stderr)
        return 2
    try:
        return serve_hall(config)
    except (OSError, sqlite3.Error, StoreError) as error:
        print(f"cardtable hall: refused: {error}", file=sys.stderr)
        return 1


def _config(args: argparse.Namespace) -> HallConfig:
    from web_panel.hall.config import load_hall_config

    try:
        return load_hall_config(args.config)
    except ConfigError as error:
        raise ValueError(f"{args.config}: {error}") from None


def _store_of(config: HallConfig) -> HallStore:
    from web_panel.hall.store import HallStore

    if not config.database.exists():  # the organiser's command never makes an empty record
        raise ValueError(f"no hall database at {config.database} (database in the config): has the hall run?")
    return HallStore(config.database)


def cmd_new_evening(args: argparse.Namespace) -> int:
    """0 with the evening closed and the next begun; 2 when there is nothing to close or the config is bad;
    1 when the database cannot be written (nothing changed)."""
    from web_panel.hall.standings import standings
    from web_panel.hall.store import StoreError

    store = _store_of(_config(args))
    try:
        closed, opened = store.new_evening()
        leaders = standings(store.finished(closed.id))[:3]
    except StoreError as error:
        print(f"cardtable hall new-evening: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    top = ", ".join(f"{row['player']} {row['points']}" for row in leaders)
    print(f"closed evening {closed.id} ({closed.started} to {closed.closed}): {_games(closed.games)}; {top}")
    print(f"evening {opened.id} begins: finished games are kept under it from now on")
    return 0


def cmd_evenings(args: argparse.Namespace) -> int:
    store = _store_of(_config(args))
    try:
        for evening in store.evenings():
            until = evening.closed or "now (the current evening)"
            print(f"{evening.id}\t{evening.started}\t{until}\t{_games(evening.games)}")
    finally:
        store.close()
    return 0


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def serve_hall(config: HallConfig) -> int:
    from web_panel.hall import HallBoard, HallStore, HallSubscriber, create_hall_app
    from web_panel.serving import make_server, shut_down

    store = HallStore(config.database)
    board = HallBoard(config.club, store)
    server = make_server(create_hall_app(board, store), config.web.host, config.web.port)
    subscriber = HallSubscriber(config.broker, config.club, board, store)
    stopping = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    board.start()
    subscriber.start()
    threading.Thread(target=server.run, name="hall-web", daemon=True).start()
    logging.getLogger(__name__).info("the hall board: http://%s:%s/", config.web.host, server.effective_port)
    while not stopping.wait(0.5):  # the main thread takes the signals
        pass
    board.close()  # open streams end first
    shut_down(server)
    subscriber.stop()
    store.close()
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hall", help="the club evening's board: every table on the club's broker, "
                                                "the standings, the finished games")
    parser.add_argument("--config", type=Path, default=DEFAULT_PATH, help=f"the hall's config (default {DEFAULT_PATH})")
    parser.set_defaults(func=cmd_hall)
    actions = parser.add_subparsers(dest="hall_action", metavar="ACTION")  # none: serve the board
    for name, func, text in (
            ("new-evening", cmd_new_evening, "close tonight's evening (its standings and games stay) and begin the next"),
            ("evenings", cmd_evenings, "list the evenings: number, began, closed, games")):
        action = actions.add_parser(name, help=text)
        # after the action too (`hall new-evening --config X`); SUPPRESS keeps a --config given before it
        action.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="the hall's config")
        action.set_defaults(func=func)
