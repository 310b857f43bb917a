"""Complete games through table logs: a simulated table's moves become the lines a real table senses;
the session's events must end the game as the simulator did, and its history must replay the same."""
from __future__ import annotations

import json
import random

import pytest

from controller.history import HistoryLine
from controller.replay import replay
from controller.simulation import cribbage as cribbage_sim
from controller.table.log import parse_table_log
from controller.table.session import TableSession

from table_logs import cribbage_log, with_incidents


def play_log(lines: list[dict]) -> tuple[TableSession, list[dict]]:
    header, parsed = parse_table_log(json.dumps(line) for line in lines)
    session = TableSession(header.header, header.deal)
    steps = [session.feed(line.input).to_json(line.number) for line in parsed]
    return session, steps


def replayed(session: TableSession) -> list[dict]:
    lines = [HistoryLine(n, event) for n, event in enumerate(session.history, start=2)]
    return list(replay(session.setup, lines))


def assert_same_game(session: TableSession, steps: list[dict], truth: dict) -> None:
    summary = session.engine.summary()
    assert (summary["scores"], summary["winner"]) == (truth["scores"], truth["winner"])
    accepted = [entry for step in steps for entry in step["events"] if entry["ok"]]
    results = replayed(session)
    assert all(result["ok"] for result in results[:-1])
    assert results[-1] == {"type": "summary", "game": session.setup.game, **summary}
    # every accepted event of the log, less any undone, with the same effects
    undone = len(accepted) - len(session.history)
    if not undone:
        assert [r["effects"] for r in results[:-1]] == [entry["effects"] for entry in accepted]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_closed_cribbage_game_ends_as_the_simulator_did(players, seed):
    lines, truth = cribbage_log(cribbage_sim.header(players, dealer=seed % players), "closed", seed)
    session, steps = play_log(lines)
    assert not [entry for step in steps for entry in step["events"] if not entry["ok"]]
    assert all(step["hold"] is None for step in steps)
    assert_same_game(session, steps, truth)


@pytest.mark.parametrize("players", [2, 3])
def test_incidents_put_right_change_nothing(players):
    lines, truth = cribbage_log(cribbage_sim.header(players), "closed", 7)
    session, steps = play_log(with_incidents(lines, random.Random(players), 30))
    holds = {step["hold"]["reason"] for step in steps if step["hold"]}
    assert holds == {"unknown", "refused", "camera", "duplicate"}
    assert_same_game(session, steps, truth)
