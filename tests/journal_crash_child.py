"""The processes test_journal_crash.py kills: each plays on the evening of cribbage games in a journal.

    python tests/journal_crash_child.py JOURNAL SEED

For every line on standard input this script forks a player (so that the 50 players share one
interpreter start): `play` plays game after game until killed, `finish` ends the game under way and
stops. A player prints `player PID`, then the seq of each event once `append_event` has returned; when
it has ended, killed or not, the script prints `ended STATUS` (a wait status).

A player reopens the journal and, if a game is unfinished, judges its events again through the engine
while walking the simulator (seed SEED + the game's index) through them, so that it plays on from
exactly there; each game ends with the engine's summary.
"""
from __future__ import annotations

import os
import sys
import traceback

from controller.journal import Journal
from journal_support import console_line, cribbage_driver, table_log_header


def play_game(journal: Journal, seed: int) -> None:
    """Plays the unfinished game of the journal to its end, or a new one if there is none."""
    current = journal.current_game()
    index = len(journal.games()) - 1 if current else len(journal.games())
    head, driver = cribbage_driver(seed + index)
    game_id = current.id if current else journal.start_game(table_log_header(head))
    journaled = journal.events(game_id)
    for number, recorded in enumerate(journaled):
        event, _ = driver.step()  # the engine judges every journaled event again
        if event != recorded:
            raise AssertionError(f"game {game_id} event {number} is {recorded} in the journal, {event} in play")
    for number, (event, _) in enumerate(driver.events(), start=len(journaled)):
        line_seq = journal.append_input(game_id, console_line(number * 0.5, event))
        sys.stdout.write(f"{journal.append_event(game_id, event, line_seq)}\n")  # one write: never half a line
        sys.stdout.flush()
    journal.end_game(game_id, driver.game.summary())


def player(path: str, seed: int, forever: bool) -> None:
    # A SIGKILL ends the process, not the machine: the OS keeps every page written, so NORMAL (no fsync
    # per commit) loses nothing here either, and keeps the 50 runs quick.
    with Journal.open(path, synchronous="NORMAL") as journal:
        play_game(journal, seed)
        while forever:
            play_game(journal, seed)


def serve(path: str, seed: int) -> None:
    for command in sys.stdin:
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                print(f"player {os.getpid()}", flush=True)  # before its first seq
                player(path, seed, forever=command.strip() == "play")
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        _, status = os.waitpid(pid, 0)
        print(f"ended {status}", flush=True)


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
