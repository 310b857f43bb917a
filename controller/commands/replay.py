"""`cardtable replay FILE`: the hand-history replay contract (spec/hand-history.md)."""
from __future__ import annotations

import argparse
import json
import sys

from ..history import HistoryError, read_history
from ..replay import replay


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="judge a hand history, one JSON line per event")
    parser.add_argument("file", help="a cardtable-history/1 file (JSON Lines)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        header, lines = read_history(args.file)
        results = list(replay(header, lines))
    except HistoryError as error:
        print(f"cardtable replay: {args.file}: {error}", file=sys.stderr)
        return 2
    for result in results:
        print(json.dumps(result, ensure_ascii=False))
    return 0
