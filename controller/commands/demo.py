"""`cardtable demo`: the table service on a simulated table, with the web panel (see controller/demo.py).

Its arguments are checked before the table starts: a --history path that cannot be written, a player
count the game does not take, a panel port in use are refused at once. SIGTERM and Ctrl-C stop it
cleanly (the camera, the loop with its journal, then the panel); exit 0, or 1 when a game's result was
not the simulated table's.
"""
from __future__ import annotations

import argparse
import json
import secrets
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..arguments import number
from ..femkort import options as femkort
from ..ferbli import game as ferbli
from ..history import HEADER_START
from ..output_files import check_output, starts_with
from ..service.pin import PinError, check_pin

if TYPE_CHECKING:
    from ..demo import DemoSettings

MAX_SPEED = 100.0
# the games' own limits (cribbage's engine takes 2, 3 or 4); the simulated table seats up to eight
PLAYERS = {"cribbage": range(2, 5), "femkort": range(femkort.MIN_PLAYERS, femkort.MAX_PLAYERS + 1),
           "ferbli": range(ferbli.MIN_PLAYERS, ferbli.MAX_PLAYERS + 1)}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="the table service at a simulated table, with the web panel: "
                                                "rendered cards, the real vision, journal, simulated hardware")
    parser.add_argument("--game", choices=tuple(PLAYERS), default="cribbage")
    parser.add_argument("--players", type=int,
                        help=f"cribbage {_span('cribbage')} (4 = two partnerships, default 2), Femkort "
                             f"{_span('femkort')}, Färbeln {_span('ferbli')} (default 3); seven or eight players "
                             "get a wider camera frame")
    parser.add_argument("--deal", choices=("closed", "open"), default="closed",
                        help="closed: the dealt cards are not read (NEXT deals them); open: each card dealt passes "
                             "over the deal reader, the service's second camera (default closed)")
    parser.add_argument("--seed", type=int, help="play the same games again (default: random ones)")
    parser.add_argument("--speed", type=number(0, MAX_SPEED), default=1.0,
                        help="1: a move a second and the camera at 15 fps; 2 twice as fast; 0 as fast as the "
                             f"vision reads (at most {MAX_SPEED:g}; default 1)")
    parser.add_argument("--reads", type=int, choices=range(1, 6), default=5,
                        help="frames the service's vision reads per settled scene, 1 to 5; a card counts when "
                             "seen in most of them (default 5, as the service's camera)")
    parser.add_argument("--no-deck-check", action="store_true",
                        help="skip the deck check the dealer runs at the console before the first game")
    parser.add_argument("--games", type=int, metavar="N", help="stop after N games (default: until stopped)")
    parser.add_argument("--options", type=json.loads, default={}, metavar="JSON",
                        help='the game\'s options, as in a hand-history header (e.g. \'{"target": 61}\')')
    parser.add_argument("--host", default="127.0.0.1",
                        help="the panel's address: 0.0.0.0 to open it from a phone on this network "
                             "(default 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the panel's port (default 8000; 0: any free one)")
    parser.add_argument("--no-panel", action="store_true", help="play without serving the panel")
    parser.add_argument("--pin", help="the dealer console's PIN, 4 to 12 digits (default: a random one, printed)")
    parser.add_argument("--state", type=Path, metavar="DIR",
                        help="keep the state directory (the journal) there (default: a temporary one)")
    parser.add_argument("--history", metavar="FILE", help="write each finished game's hand history there")
    parser.add_argument("--force", action="store_true", help="replace --history even if it is not a history")
    parser.set_defaults(func=run)


def _span(game: str) -> str:
    return f"{PLAYERS[game][0]}-{PLAYERS[game][-1]}"


def run(args: argparse.Namespace) -> int:
    players = args.players or PLAYERS[args.game][0]
    if players not in PLAYERS[args.game]:
        return _refuse(f"argument --players: the demo plays {args.game} with {PLAYERS[args.game][0]} "
                       f"to {PLAYERS[args.game][-1]} players, not {players}")
    if args.games is not None and args.games < 1:
        return _refuse(f"argument --games: at least 1, not {args.games}")
    if not 0 <= args.port <= 65535:
        return _refuse(f"argument --port: 0..65535, not {args.port}")
    if args.history:  # a history the demo wrote before may be replaced; anything else needs --force
        check_output(args.history, option="--history", force=args.force, ours=starts_with(HEADER_START))
    pin = args.pin or f"{secrets.randbelow(10**4):04d}"
    try:
        check_pin(pin)
    except PinError as error:
        return _refuse(f"argument --pin: {error}")
    seed = secrets.randbelow(10**6) if args.seed is None else args.seed
    from ..demo import DemoSettings  # vision, gpiozero and the panel load once the arguments are good

    return run_demo(DemoSettings(args.game, players, seed, args.options, args.games, args.speed, args.reads,
                                 args.host, None if args.no_panel else args.port, pin, args.state,
                                 Path(args.history) if args.history else None, deal=args.deal,
                                 deck_check=not args.no_deck_check))


def run_demo(settings: DemoSettings) -> int:
    """Play until stopped (or `settings.games` are played): 0, or 1 when a game's result was not the truth."""
    from ..demo import DemoTable

    print(f"cardtable demo: {settings.players}-player {settings.game} on the table service, {settings.deal} deal, "
          f"seed {settings.seed}", flush=True)
    with tempfile.TemporaryDirectory(prefix="cardtable-demo-") as temporary:
        state = settings.state or Path(temporary)
        demo = DemoTable(settings, state, lambda text: print(text, flush=True))

        def on_signal(signum: int, frame: Any) -> None:
            demo.stopping.set()

        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, on_signal)
        results = demo.run()
        print(f"stopped after {len(results)} game(s); journal: {state}", flush=True)
    return 0 if all(result.same_result for result in results) else 1


def _refuse(message: str) -> int:
    print(f"cardtable demo: error: {message}", file=sys.stderr)
    return 2
