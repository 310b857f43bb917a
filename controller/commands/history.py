"""`cardtable history list|export`: the games in the table's journal, and one of them as a hand history."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Iterable

from ..journal import GameRecord, Journal, JournalError, default_journal_path
from ..output_files import write_atomically


class ExportError(Exception):
    """The hand history cannot be written where asked; nothing was written."""


def register(subparsers: argparse._SubParsersAction) -> None:
    history = subparsers.add_parser("history", help="the games in the journal; export one as a hand history")
    sub = history.add_subparsers(dest="history_command", required=True, metavar="ACTION")
    journal_help = f"the journal (default {default_journal_path()}; $CARDTABLE_STATE_DIR sets the folder)"

    listing = sub.add_parser("list", help="one line per game: id, game, players, started, ended, events, result")
    listing.add_argument("--journal", type=Path, default=None, help=journal_help)
    listing.set_defaults(func=_guard(run_list))

    export = sub.add_parser("export", help="write a game as a cardtable-history/1 file (replay it with "
                                           "`cardtable replay`)")
    export.add_argument("out", metavar="OUT", help="the file to write, or - for standard output")
    export.add_argument("--game", type=int, default=None, help="the game's id (default: the last game)")
    export.add_argument("--journal", type=Path, default=None, help=journal_help)
    export.add_argument("--force", action="store_true", help="replace OUT if it exists")
    export.set_defaults(func=_guard(run_export))


def _guard(command: Callable[[argparse.Namespace, Journal], int]) -> Callable[[argparse.Namespace], int]:
    """Opens the journal read-only for `command`; a journal or export error is one line and exit 2."""
    def run(args: argparse.Namespace) -> int:
        try:
            with Journal.open(args.journal or default_journal_path(), readonly=True) as journal:
                return command(args, journal)
        except (JournalError, ExportError) as error:
            print(f"cardtable history {args.history_command}: {error}", file=sys.stderr)
            return 2
    return run


def run_list(args: argparse.Namespace, journal: Journal) -> int:
    rows = [("id", "game", "players", "started", "ended", "events", "result")]
    rows += [(str(g.id), g.game, ", ".join(g.players), g.started, g.ended or "-", str(g.events), result(g))
             for g in journal.games()]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    return 0


def result(game: GameRecord) -> str:
    """What a game came to: the winner and the scores or chips, or that it is still being played."""
    summary = game.summary
    if summary is None:
        return "playing" if game.ended is None else "ended"
    players = game.players
    winner, scores, chips = summary.get("winner"), summary.get("scores"), summary.get("chips")
    sides = len(scores) if isinstance(scores, list) and scores else len(players)
    parts = []
    if isinstance(winner, int) and 0 <= winner < sides:
        parts.append(" & ".join(players[winner::sides]) + " won")
    if scores:
        parts.append("-".join(map(str, scores)))
    elif chips:
        parts.append("chips " + " ".join(map(str, chips)))
    return " ".join(parts) or "no winner"


def run_export(args: argparse.Namespace, journal: Journal) -> int:
    game_id = args.game if args.game is not None else _last_game(journal)
    lines = list(journal.history_lines(game_id))
    if args.out == "-":
        sys.stdout.writelines(line + "\n" for line in lines)
    else:
        write_new_file(Path(args.out), lines, replace=args.force)
    return 0


def _last_game(journal: Journal) -> int:
    games = journal.games()
    if not games:
        raise JournalError(f"{journal.path}: no games in the journal")
    return games[-1].id


def write_new_file(path: Path, lines: Iterable[str], *, replace: bool) -> None:
    """Writes the lines to `path` atomically: a reader sees no file, or the old one, or the whole new one.
    Without `replace` an existing file is refused, even one that appears while writing."""
    if path.exists() and not replace:
        raise ExportError(f"{path} exists (--force replaces it)")
    try:
        write_atomically(path, lambda stream: stream.writelines((line + "\n").encode("utf-8") for line in lines),
                         new_mode=0o644, replace=replace)  # a hand history is for sharing
    except FileExistsError:
        raise ExportError(f"{path} exists (--force replaces it)") from None
    except OSError as error:
        raise ExportError(f"cannot write {path}: {error.strerror}") from None
