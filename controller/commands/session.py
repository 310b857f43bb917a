"""`cardtable session FILE [--history OUT]`: a table log through the real table session, line by line."""
from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from ..engine import SetupError
from ..history import HEADER_START, write_history
from ..output_files import check_output, starts_with, write_text_atomically
from ..replay import summary_line
from ..table.log import TableLogError, read_table_log
from ..table.session import TableSession


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("session", help="feed a table log through the table session, one JSON line "
                                                   "per log line, then the replay summary")
    parser.add_argument("file", help="a cardtable-table-log/1 file (JSON Lines)")
    parser.add_argument("--history", metavar="OUT",
                        help="write the accepted events (less those undone) as a hand history; a log playing "
                             "several games of a match writes the second to OUT-2, and so on")
    parser.add_argument("--force", action="store_true", help="replace OUT even if it is not a hand history")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.history:  # before the log is judged: a path it cannot write is refused at once
        _checked_history(args, 1)
    try:
        header, lines = read_table_log(args.file)
        session = TableSession(header.header, header.deal)
    except SetupError as error:
        print(f"cardtable session: {args.file}: line 1: bad header: {error}", file=sys.stderr)
        return 2
    except TableLogError as error:
        print(f"cardtable session: {args.file}: {error}", file=sys.stderr)
        return 2
    for line in lines:
        print(json.dumps(session.feed(line.input).to_json(line.number), ensure_ascii=False))
    print(json.dumps(summary_line(session.engine, session.setup), ensure_ascii=False))
    if args.history:
        for number, game in enumerate(session.games, start=1):
            text = io.StringIO()
            write_history(text, game.setup, game.events)
            write_text_atomically(_checked_history(args, number), text.getvalue())
    return 0


def _checked_history(args: argparse.Namespace, game: int) -> Path:
    """The history file of the log's `game`-th game, if it may be written (never over the log itself; over
    a file only if it is a hand history, or with --force)."""
    return check_output(history_path(args.history, game), option="--history", inputs=(args.file,),
                        force=args.force, ours=starts_with(HEADER_START))


def history_path(out: str, game: int) -> Path:
    """OUT for the first game of the log, OUT-2 (before the suffix) for the second, ..."""
    path = Path(out)
    return path if game == 1 else path.with_name(f"{path.stem}-{game}{path.suffix}")
