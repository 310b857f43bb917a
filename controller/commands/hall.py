"""`cardtable hall --config hall.toml`: the club evening's board (web_panel/hall/), served by waitress."""
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

DEFAULT_PATH = Path("/etc/cardtable/hall.toml")


def cmd_hall(args: argparse.Namespace) -> int:
    """0 after SIGTERM/SIGINT; 2 for a config refused (naming the key); 1 when the database or the port
    cannot be had."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from web_panel.hall.config import load_hall_config

    try:
        config = load_hall_config(args.config)
    except ConfigError as error:
        print(f"cardtable hall: refused: {args.config}: {error}", file=sys.stderr)
        return 2
    try:
        return serve_hall(config)
    except (OSError, sqlite3.Error) as error:
        print(f"cardtable hall: refused: {error}", file=sys.stderr)
        return 1


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
