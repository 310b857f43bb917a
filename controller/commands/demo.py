"""`cardtable demo`: a whole game at a simulated table (see controller/demo.py)."""
from __future__ import annotations

import argparse
import sys

from ..demo import run_demo


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="play a cribbage game on simulated hardware, end to end")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="4 = two partnerships")
    parser.add_argument("--seed", type=int, help="replay the same game (default: a random one)")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds between events (default 0.02)")
    parser.add_argument("--history", metavar="FILE", help="also write the game as a hand history")
    parser.set_defaults(func=lambda args: run_demo(sys.stdout, args.players, args.seed, args.delay, args.history))
