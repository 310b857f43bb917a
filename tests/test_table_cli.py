"""`cardtable session FILE [--history OUT]` on every sample table log: the output contract, and the
history it writes replays to the same effects and summary."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.simulation import cribbage as cribbage_sim

from table_logs import cribbage_log, sample_truth

SAMPLES = sorted((Path(__file__).parent / "data" / "table-logs").glob("*.jsonl"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("sample", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_the_history_of_a_sample_log_replays_to_the_same_effects_and_summary(sample, tmp_path, capsys):
    out = tmp_path / "history.jsonl"
    code, lines, _ = run(capsys, "session", str(sample), "--history", str(out))
    assert code == 0
    *steps, summary = lines
    numbered = [n for n, text in enumerate(sample.read_text().splitlines(), 1)
                if n > 1 and text.strip() and not text.startswith("#")]
    assert [step["n"] for step in steps] == numbered
    truth = sample_truth(str(sample))
    assert (summary["scores"], summary["chips"], summary["winner"]) == (truth["scores"], truth["chips"],
                                                                        truth["winner"])
    code, replayed, _ = run(capsys, "replay", str(out))
    assert code == 0 and replayed[-1] == summary
    undos = [n for n, text in enumerate(sample.read_text().splitlines(), 1) if '"undo"' in text]
    assert [r["effects"] for r in replayed[:-1]] == [entry["effects"] for entry in _kept(steps, undos)]


def _kept(steps: list[dict], undo_lines: list[int]) -> list[dict]:
    """The accepted events less those undone: each undo takes back the last one still standing."""
    kept: list[dict] = []
    for step in steps:
        if step["n"] in undo_lines and kept:
            kept.pop()
        kept += [entry for entry in step["events"] if entry["ok"]]
    return kept


def test_an_unreadable_log_exits_2_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    header = {"format": "cardtable-table-log/1", "game": "cribbage", "players": ["A", "B"], "dealer": 0,
              "options": {}, "chips": None, "deal": "closed"}
    bad.write_text(json.dumps(header) + "\n\n" + '{"t": 1, "type": "placed", "card": "QS", "zone": "seat-9"}\n')
    code, lines, err = run(capsys, "session", str(bad))
    assert (code, lines) == (2, [])
    assert "line 3" in err and "seat-9" in err


def test_a_header_the_game_refuses_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    header = {"format": "cardtable-table-log/1", "game": "cribbage", "players": ["A"] * 5, "dealer": 0,
              "options": {}, "chips": None, "deal": "closed"}
    bad.write_text(json.dumps(header) + "\n")
    code, _, err = run(capsys, "session", str(bad))
    assert code == 2 and "line 1: bad header" in err and "5" in err


def test_a_log_playing_on_into_the_next_game_writes_a_history_per_game(tmp_path, capsys):
    lines, truth = cribbage_log(cribbage_sim.header(2), "closed", 4)
    t = lines[-1]["t"]
    lines += [{"t": t, "type": "button", "action": "next", "seat": None},  # the next game of the match
              {"t": t, "type": "button", "action": "next", "seat": None}]  # its deal
    log = tmp_path / "match.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, _ = run(capsys, "session", str(log), "--history", str(tmp_path / "h.jsonl"))
    assert code == 0 and out[-1]["scores"] == [0, 0] and out[-2]["events"][0]["event"]["type"] == "deal"
    code, first, _ = run(capsys, "replay", str(tmp_path / "h.jsonl"))
    assert (first[-1]["scores"], first[-1]["winner"]) == (truth["scores"], truth["winner"])
    code, second, _ = run(capsys, "replay", str(tmp_path / "h-2.jsonl"))
    assert len(second) == 2 and second[0]["ok"] and second[-1]["scores"] == [0, 0]
    assert json.loads((tmp_path / "h-2.jsonl").read_text().splitlines()[0])["dealer"] == 1
