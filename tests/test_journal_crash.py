"""SIGKILL at random points of an evening of games, 50 times: every event the killed process saw committed
is in the journal, intact and in order, with nothing partial; the games replay, and the next process plays
on from there to the same end as games never interrupted."""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from controller.history import parse_history
from controller.journal import Journal
from controller.replay import replay
from journal_support import cribbage_driver

TESTS = Path(__file__).parent
KILLS = 50
SEED = 11


@cache
def truth(index: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events and summary of the evening's game `index`, played without interruption."""
    _, driver = cribbage_driver(SEED + index)
    return [event for event, _ in driver.events()], driver.game.summary()


class Players:
    """Talks to journal_crash_child.py: starts a player, reads what it reports, kills it."""

    def __init__(self, path: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), str(TESTS)])}
        self.process = subprocess.Popen([sys.executable, str(TESTS / "journal_crash_child.py"), str(path),
                                         str(SEED)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        env=env)

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "journal_crash_child.py stopped"
        return line.strip()

    def start(self, command: str) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        kind, pid = self._line().split()
        assert kind == "player"
        return int(pid)

    def committed(self, count: int | None) -> tuple[list[int], int | None]:
        """The seqs the player reports, `count` of them (None: until it ends), and its wait status if it
        ended meanwhile."""
        seqs: list[int] = []
        while count is None or len(seqs) < count:
            line = self._line()
            if line.startswith("ended "):
                return seqs, int(line.split()[1])
            seqs.append(int(line))
        return seqs, None

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture
def players(tmp_path: Path) -> Iterator[Players]:
    running = Players(tmp_path / "journal.sqlite3")
    yield running
    running.close()


def kill_at_random(players: Players, rng: random.Random) -> list[int]:
    """Starts a player and kills it after a few events, mid-whatever; returns every seq it reported."""
    pid = players.start("play")
    seqs, _ = players.committed(rng.randint(0, 3))
    time.sleep(rng.random() * 0.002)
    os.kill(pid, signal.SIGKILL)
    rest, status = players.committed(None)  # what it printed before it died: committed too
    assert status is not None and os.WIFSIGNALED(status)
    return seqs + rest


def check_journal(path: Path, reported: list[int]) -> list[int]:
    """Every reported event is there in order, nothing partial, each game a prefix of its truth; returns
    the seqs in the journal."""
    with Journal.open(path, readonly=True) as journal:
        games = journal.games()
        rows = [journal.event_rows(game.id) for game in games]
    for index, (game, game_rows) in enumerate(zip(games, rows)):
        events, summary = truth(index)
        assert [event for event, _ in game_rows] == events[:len(game_rows)]  # intact, in order
        assert game.summary in ((summary, None) if index == len(games) - 1 else (summary,))
    seqs = [seq for game_rows in rows for _, seq in game_rows]
    assert seqs[:len(reported)] == reported  # every event reported committed
    assert len(seqs) <= len(reported) + 1  # and at most the one being reported as the kill came
    # Closed here, not left to the garbage collector (a connection and its statement cache form a cycle):
    # a connection this process kept open would keep SQLite from recovering the WAL when the next process
    # opens it, so a commit a killed player had written but not finished could stay unseen here and turn up
    # once the next player recovers the WAL, an event neither reported nor in the journal we checked.
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
        for event, line in connection.execute("SELECT e.event, i.line FROM events e JOIN inputs i "
                                              "ON i.seq = e.input ORDER BY e.seq"):  # each event with its line
            assert json.loads(line)["event"] == json.loads(event)
    return seqs


def held_open(path: Path) -> list[str]:
    """The files of the journal (with its WAL and WAL index) this process has open."""
    names = []
    for fd in Path("/proc/self/fd").iterdir():
        try:
            names.append(os.readlink(fd))
        except OSError:  # the listing's own descriptor, closed meanwhile
            continue
    return [name for name in names if name.startswith(str(path.resolve()))]


def test_killed_fifty_times_the_journal_loses_nothing_and_the_games_end_as_if_never_killed(
        tmp_path: Path, players: Players) -> None:
    path = tmp_path / "journal.sqlite3"
    rng = random.Random(SEED)
    reported: list[int] = []
    for _ in range(KILLS):
        reported = check_journal(path, reported + kill_at_random(players, rng))
        assert not held_open(path)  # the next player opens the journal alone, and recovers its WAL

    players.start("finish")
    seqs, status = players.committed(None)
    assert status == 0
    check_journal(path, reported + seqs)
    with Journal.open(path, readonly=True) as journal:
        games = journal.games()
        histories = [parse_history(journal.history_lines(game.id)) for game in games]
    for index, (game, (header, lines)) in enumerate(zip(games, histories)):
        results = list(replay(header, lines))
        assert all(result["ok"] for result in results[:-1])
        assert len(lines) == len(truth(index)[0])
        assert game.summary == truth(index)[1] == {k: v for k, v in results[-1].items() if k not in ("type", "game")}
        assert game.summary is not None and game.summary["winner"] is not None
