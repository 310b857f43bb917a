"""`cardtable demo`: a whole game at a simulated table (see controller/demo.py).

Its arguments are checked before the game starts: a --history path that cannot be written is refused
at once, not after the whole game was played.
"""
from __future__ import annotations

import argparse
import sys

from ..arguments import number
from ..demo import run_demo
from ..history import HEADER_START
from ..output_files import check_output, starts_with

MAX_DELAY_S = 60.0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="play a cribbage game on simulated hardware, end to end")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="4 = two partnerships")
    parser.add_argument("--seed", type=int, help="replay the same game (default: a random one)")
    parser.add_argument("--delay", type=number(0, MAX_DELAY_S), default=0.02,
                        help=f"seconds between events, 0 to {MAX_DELAY_S:g} (default 0.02)")
    parser.add_argument("--history", metavar="FILE", help="also write the game as a hand history")
    parser.add_argument("--force", action="store_true", help="replace --history even if it is not a history")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.history:  # a history the demo wrote before may be replaced; anything else needs --force
        check_output(args.history, option="--history", force=args.force,
                     ours=starts_with(HEADER_START))
    return run_demo(sys.stdout, args.players, args.seed, args.delay, args.history)
