"""Complete games through table logs: a simulated table's moves become the lines a real table senses;
the session's events must end the game as the simulator did, and its history must replay the same."""
from __future__ import annotations

import random

import pytest

from controller.history import HistoryLine
from controller.replay import replay
from controller.simulation import cribbage as cribbage_sim, femkort as femkort_sim, ferbli as ferbli_sim
from controller.table.session import TableSession

from table_logs import cribbage_log, femkort_log, ferbli_log, play_log, with_incidents


def replayed(session: TableSession) -> list[dict]:
    lines = [HistoryLine(n, event) for n, event in enumerate(session.history, start=2)]
    return list(replay(session.setup, lines))


def assert_same_game(session: TableSession, steps: list[dict], truth: dict) -> None:
    summary = session.engine.summary()
    assert (summary["scores"], summary["chips"], summary["winner"]) == (truth["scores"], truth["chips"],
                                                                        truth["winner"])
    accepted = [entry for step in steps for entry in step["events"] if entry["ok"]]
    results = replayed(session)
    assert all(result["ok"] for result in results[:-1])
    assert results[-1] == {"type": "summary", "game": session.setup.game, **summary}
    # every accepted event of the log, less any undone, with the same effects
    undone = len(accepted) - len(session.history)
    if not undone:
        assert [r["effects"] for r in results[:-1]] == [entry["effects"] for entry in accepted]


@pytest.mark.parametrize("deal", ["closed", "open"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_cribbage_game_ends_as_the_simulator_did(deal, players, seed):
    lines, truth = cribbage_log(cribbage_sim.header(players, dealer=seed % players), deal, seed)
    session, steps = play_log(lines)
    assert_no_refusal_nor_hold(steps)
    assert_same_game(session, steps, truth)


def assert_no_refusal_nor_hold(steps: list[dict]) -> None:
    assert not [entry for step in steps for entry in step["events"] if not entry["ok"]]
    assert all(step["hold"] is None for step in steps)


@pytest.mark.parametrize("deal", ["closed", "open"])
@pytest.mark.parametrize("players, options, seed", [
    (3, {}, 1), (4, {"trump": True}, 2), (3, {"redeal_on_request": True}, 3), (5, {"best_of_three": True}, 4),
    (4, {"contender_rule": "won_a_trick", "stake_escalation": True}, 5)])
def test_a_femkort_match_ends_as_the_simulator_did(deal, players, options, seed):
    lines, truth = femkort_log(femkort_sim.header(players, dealer=seed % players, **options), deal, seed)
    session, steps = play_log(lines)
    assert_no_refusal_nor_hold(steps)
    assert_same_game(session, steps, truth)


@pytest.mark.parametrize("deal", ["closed", "open"])
@pytest.mark.parametrize("players, options, seed", [(3, {}, 1), (4, {"table_stakes": "must_fold"}, 2), (5, {}, 3)])
def test_a_ferbli_match_ends_as_the_simulator_did(deal, players, options, seed):
    lines, truth = ferbli_log(ferbli_sim.header(players, dealer=seed % players, chips=[20] * players, **options),
                              deal, seed)
    session, steps = play_log(lines)
    assert_no_refusal_nor_hold(steps)
    assert_same_game(session, steps, truth)


@pytest.mark.parametrize("players", [2, 3])
def test_incidents_put_right_change_nothing(players):
    lines, truth = cribbage_log(cribbage_sim.header(players), "closed", 7)
    session, steps = play_log(with_incidents(lines, random.Random(players), 30))
    holds = {step["hold"]["reason"] for step in steps if step["hold"]}
    assert holds == {"unknown", "refused", "camera", "duplicate"}
    assert_same_game(session, steps, truth)


@pytest.mark.parametrize("deal", ["closed", "open"])
def test_incidents_in_a_femkort_match_change_nothing(deal):
    lines, truth = femkort_log(femkort_sim.header(3), deal, 8)
    session, steps = play_log(with_incidents(lines, random.Random(8), 30))
    assert {step["hold"]["reason"] for step in steps if step["hold"]} == {"unknown", "refused", "camera",
                                                                          "duplicate"}
    assert_same_game(session, steps, truth)
