"""`cardtable demo`: a whole game at a simulated table, on the real pipeline (see controller/demo.py).

Its arguments are checked before the game starts: a --history path that cannot be written is refused
at once, not after the whole game was played.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..arguments import number
from ..demo import run_demo
from ..history import HEADER_START
from ..output_files import check_output, starts_with

MAX_DELAY_S = 60.0
PLAYERS = {"cribbage": (2, 3, 4), "femkort": (3, 4), "ferbli": (3, 4)}  # the demo table seats four


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="play a game at a simulated table: rendered cards, the real vision, "
                                                "the table session, the journal, simulated hardware")
    parser.add_argument("--game", choices=tuple(PLAYERS), default="cribbage")
    parser.add_argument("--players", type=int, help="the demo table seats four: cribbage 2-4 (4 = two "
                                                    "partnerships, default 2), Femkort and Färbeln 3-4 (default 3)")
    parser.add_argument("--deal", choices=("closed", "open"), default="closed",
                        help="open: every card is dealt over the deal reader (default: closed)")
    parser.add_argument("--seed", type=int, help="play the same game again (default: a random one)")
    parser.add_argument("--delay", type=number(0, MAX_DELAY_S), default=0.0,
                        help=f"seconds to wait after each move, 0 to {MAX_DELAY_S:g} (default 0)")
    parser.add_argument("--reads", type=int, choices=range(1, 6), default=3,
                        help="frames the vision reads per settled scene, 1 to 5 (default 3)")
    parser.add_argument("--options", type=json.loads, default={}, metavar="JSON",
                        help='the game\'s options, as in a hand-history header (e.g. \'{"target": 61}\')')
    parser.add_argument("--journal", metavar="PATH", help="keep the journal there (default: a temporary one)")
    parser.add_argument("--history", metavar="FILE", help="also write the game as a hand history")
    parser.add_argument("--force", action="store_true", help="replace --history even if it is not a history")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = args.players or PLAYERS[args.game][0]
    if players not in PLAYERS[args.game]:
        print(f"cardtable demo: error: argument --players: the demo plays {args.game} with {PLAYERS[args.game][0]} "
              f"to {PLAYERS[args.game][-1]} players, not {players}", file=sys.stderr)
        return 2
    if args.history:  # a history the demo wrote before may be replaced; anything else needs --force
        check_output(args.history, option="--history", force=args.force,
                     ours=starts_with(HEADER_START))
    return run_demo(lambda text: print(text, flush=True), args.game, players, args.deal, args.seed, args.options,
                    args.reads, args.delay, args.journal, args.history)
