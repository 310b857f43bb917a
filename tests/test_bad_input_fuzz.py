"""Fuzzing every input surface of issue 28: mutated hand histories, raw JSON lines, the table log's camera
lines, image files, calibration files, manifests and command-line arguments. Zero tracebacks: only the documented error of each reader,
or the command's one-line refusal; and a refused history line changes nothing.

Each test is bounded (a few dozen to a few hundred examples, a few seconds).
"""
from __future__ import annotations

import io
import json
import string
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import cli
from controller.engine import SetupError
from controller.history import HistoryError, parse_history, stream_history
from controller.jsonlines import JsonLineError, bounded_lines, json_lines
from controller.replay import replay
from controller.table.log import TableLogError, parse_table_log
from controller.table.session import TableSession
from vision.calibration import Calibration
from vision.manifest import manifest_rows
from vision.observations import ObservationError, observation_from_json
from vision.sources import load_image

DATA = Path(__file__).parent / "data"
HISTORIES = sorted((DATA / "histories").glob("*/*.jsonl"))
BAD = DATA / "bad-inputs"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# JSON values of every kind, including the awkward ones (huge numbers, deep nesting, odd text)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 53 + 1, 2 ** 53 - 1),
                         st.floats(allow_nan=False, allow_infinity=False),
                         st.text(max_size=12), st.sampled_from(["10♥️", "QS", "", "upcard", "crib", "x" * 50]))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
FIELDS = ["type", "seat", "card", "cards", "hands", "to", "up", "amount", "option", "discard", "dealer", "draw",
          "crib", "points", "by", "agree", "crad"]


def judged(lines: list[str]) -> list[dict[str, Any]] | str:
    """The replay's results, or the one HistoryError message for an unreadable file."""
    try:
        header, events = parse_history(lines)
        results = list(replay(header, events))
    except HistoryError as error:
        return str(error)
    json.dumps(results)  # everything printed must be printable
    return results


def history_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# the sample histories whose header is readable, with their results
READABLE = [(history_lines(p), results) for p in HISTORIES if not isinstance(results := judged(history_lines(p)), str)]


def good_history_lines(index: int) -> list[str]:
    return READABLE[index % len(READABLE)][0]


@FUZZ
@given(index=st.integers(0, 100), at=st.integers(1, 400), field=st.sampled_from(FIELDS), value=json_values)
def test_a_mutated_event_line_is_refused_without_changing_anything(index: int, at: int, field: str,
                                                                     value: Any) -> None:
    lines, without = READABLE[index % len(READABLE)]
    events = [i for i, line in enumerate(lines) if i > 0 and line.strip() and not line.startswith("#")]
    if not events:
        return
    target = events[at % len(events)]
    event = json.loads(lines[target])
    event[field] = value
    inserted = lines[:target] + [json.dumps(event)] + lines[target:]
    with_it = judged(inserted)
    assert not isinstance(with_it, str), with_it
    line_number = target + 1
    result = next(r for r in with_it if r.get("n") == line_number)
    if not result["ok"]:  # refused: every other line judged as if it were not there
        renumbered = [{**r, "n": r["n"] - 1} if r.get("n", 0) > line_number else r
                      for r in with_it if r.get("n") != line_number]
        assert renumbered == without


@FUZZ
@given(index=st.integers(0, 100), at=st.integers(0, 5000), data=st.binary(max_size=12))
def test_mutated_history_bytes_give_a_history_error_or_results(index: int, at: int, data: bytes) -> None:
    raw = bytearray("\n".join(good_history_lines(index)).encode())
    spot = at % len(raw)
    raw[spot:spot + len(data)] = data
    try:
        header, events = stream_history(bounded_lines(io.BytesIO(bytes(raw))))
        json.dumps(list(replay(header, events)))
    except HistoryError as error:
        assert str(error).startswith("line ")


@FUZZ
@given(line=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_a_value_or_a_json_line_error(line: bytes) -> None:
    try:
        values = list(json_lines(bounded_lines(io.BytesIO(line), max_bytes=120)))
    except JsonLineError as error:
        assert error.line >= 1 and str(error).startswith(f"line {error.line}: ")
    else:
        json.dumps(values)


@FUZZ
@given(header=st.dictionaries(st.sampled_from(["format", "game", "players", "dealer", "options", "chips"]),
                              json_values, max_size=6))
def test_any_header_is_read_or_named(header: dict[str, Any]) -> None:
    header.setdefault("format", "cardtable-history/1")
    result = judged([json.dumps(header), '{"type": "new_hand"}'])
    if isinstance(result, str):
        assert result.startswith("line 1: ")


@FUZZ
@given(seed=st.sampled_from(["bomb.png", "trunc50.jpg"]), at=st.integers(0, 12000), data=st.binary(max_size=16),
       cut=st.integers(0, 12000))
def test_damaged_images_are_a_value_error(tmp_path: Path, seed: str, at: int, data: bytes, cut: int) -> None:
    raw = bytearray((BAD / "vision" / seed).read_bytes())
    spot = at % len(raw)
    raw[spot:spot + len(data)] = data
    path = tmp_path / seed
    path.write_bytes(bytes(raw[:max(cut, 8)]))
    try:
        image = load_image(path)
    except ValueError:
        return
    assert image.ndim == 3 and image.shape[0] * image.shape[1] <= 4096 * 4096


TABLE_LOGS = sorted((DATA / "table-logs").glob("*.jsonl"))


@FUZZ
@given(index=st.integers(0, 100), at=st.integers(0, 50000), data=st.binary(max_size=12))
def test_mutated_table_log_bytes_are_read_or_named(index: int, at: int, data: bytes) -> None:
    raw = bytearray(TABLE_LOGS[index % len(TABLE_LOGS)].read_bytes())
    spot = at % len(raw)
    raw[spot:spot + len(data)] = data
    try:
        header, lines = parse_table_log(bounded_lines(io.BytesIO(bytes(raw))))
    except TableLogError as error:
        assert str(error).startswith(f"line {error.line}: ")
        return
    try:
        session = TableSession(header.header, header.deal)
    except SetupError as error:  # a mutated header the game cannot start with: named, as the command says
        assert str(error)
        return
    for line in lines:  # whatever was read, the session judges it without a traceback
        json.dumps(session.feed(line.input).to_json(line.number))


CAMERA_LINE_FIELDS = ["t", "type", "card", "zone", "zones", "count", "status", "detail", "text"]
CAMERA_TYPES = st.sampled_from(["placed", "removed", "face_down", "unknown", "duplicate", "camera", "flip"])


@FUZZ
@given(line=st.fixed_dictionaries({"t": st.floats(0, 1e6) | json_values, "type": CAMERA_TYPES | json_values},
                                  optional={name: json_values for name in CAMERA_LINE_FIELDS[2:]}),
       raw=st.binary(max_size=80))
def test_any_table_log_camera_line_is_an_observation_or_named(line: dict[str, Any], raw: bytes) -> None:
    for candidate in (line, *(value for _, value in _parsed(raw))):
        try:
            t, _ = observation_from_json(candidate)
        except ObservationError as error:
            assert str(error)
        else:
            assert t >= 0


def _parsed(raw: bytes) -> list[tuple[int, Any]]:
    try:
        return list(json_lines([raw]))
    except JsonLineError:
        return []


CALIBRATION = json.loads((BAD / "vision" / "cal.json").read_text())


@FUZZ
@given(field=st.sampled_from(sorted(CALIBRATION)), value=json_values)
def test_any_calibration_value_is_loaded_or_named(tmp_path: Path, field: str, value: Any) -> None:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({**CALIBRATION, field: value}))
    try:
        cal = Calibration.load(path)
    except ValueError as error:
        assert str(error).startswith(f"bad calibration file {path}: ")
        return
    low, high = cal.glyph_px()
    assert 0 < low < high and cal.card_area > 0
    width, height = cal.frame_size
    cal.check_size(np.zeros((height, width), np.uint8))  # the frames it was made for pass


@FUZZ
@given(text=st.text(alphabet=string.printable + '"\ufeff,', max_size=300))
def test_any_manifest_text_is_rows_or_a_value_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "m.csv"
    path.write_text("path,rank,suit\n" + text, encoding="utf-8")
    try:
        rows = manifest_rows(path)
    except ValueError as error:
        assert str(error).startswith(f"{path}: line ")
        return
    assert all(row.line >= 2 for row in rows)


# `demo` and `firmware simulate` would run a game or a board for real: their arguments have their own tests
WORDS = ["replay", "ferbli", "rank", "advise", "vision", "detect", "eval", "calibrate", "capture", "enroll",
         "firmware", "flash", "--pegcfg", "wiring", "--threshold", "--resize", "--size", "--out", "--force",
         "--json", "--dealer", "--pone", "--delay", "--link", "--deck", "--seats", "--timeout", "--skip", "AS",
         "10♥️", "KX", "0", "-1", "nan", "inf", "2", "1e999", "0x0", "100000x100000", "{missing}", "{file}",
         "{folder}", ""]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=7))
def test_any_arguments_give_a_result_or_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  words: list[str]) -> None:
    (tmp_path / "notes.txt").write_text("not an input of any kind")
    argv = [w.format(missing=tmp_path / "missing", file=tmp_path / "notes.txt", folder=tmp_path) for w in words]
    try:
        code = cli.main(argv)
    except SystemExit as exit:  # argparse: usage errors and --help
        code = exit.code if isinstance(exit.code, int) else 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 1, 2) and (code == 0 or err.count("\n") >= 1)
    assert (tmp_path / "notes.txt").read_text() == "not an input of any kind"
