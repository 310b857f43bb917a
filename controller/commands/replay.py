"""`cardtable replay FILE`: the hand-history replay contract (controller/HISTORY.md), streamed.

Each event's result is printed as soon as it is judged, so memory stays flat and output starts at once
however long the file. A line that cannot be read stops the replay there: the results before it have
been printed, the error names the line, and the exit code is 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..history import HistoryError, stream_history
from ..jsonlines import bounded_lines
from ..replay import replay


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="judge a hand history, one JSON line per event")
    parser.add_argument("file", help="a cardtable-history/1 file (JSON Lines)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        stream = open(args.file, "rb")
    except OSError as error:
        raise ValueError(f"{args.file}: cannot read: {error.strerror}") from None
    with stream:
        try:
            header, events = stream_history(bounded_lines(stream))
            for result in replay(header, events):
                sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        except HistoryError as error:
            raise ValueError(f"{args.file}: {error}") from None
    return 0
