"""Hand histories that once crashed or misled `cardtable replay` (issue 28), and the reader's limits."""
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.history import MAX_CHIPS, Header, HistoryError, parse_history, stream_history
from controller.jsonlines import MAX_INTEGER, MAX_LINE_BYTES, MAX_NESTING, JsonLineError, bounded_lines, nesting
from controller.replay import replay as judge

BAD = Path(__file__).parent / "data" / "bad-inputs" / "replay"
HEADER = {"format": "cardtable-history/1", "game": "cribbage", "players": ["Ann", "Bo"], "dealer": 0,
          "options": {}, "chips": None}


def replay(path: Path) -> tuple[int, list[dict], str]:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)], capture_output=True,
                          text=True, timeout=60)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def refused(path: Path, fragment: str) -> str:
    code, _, err = replay(path)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"cardtable replay: error: {path}: ") and fragment in err, err
    return err


def test_a_huge_integer_is_named_not_a_traceback():
    refused(BAD / "hugeint_5000.jsonl", "line 1: integer 999999999999...(5000 digits) is too large")


def test_deep_nesting_is_refused_at_the_documented_limit():
    refused(BAD / "deep_1000.jsonl", f"line 2: arrays and objects nested more than {MAX_NESTING} deep")


def test_a_latin1_byte_is_named_by_line_and_column():
    err = refused(BAD / "latin1.jsonl", "line 4: not UTF-8: byte 0xe9 at column 55")
    text = (BAD / "latin1.jsonl").read_bytes().splitlines()[3]
    assert text[54] == 0xE9  # column 55 is where the byte is (all ASCII before it)
    assert "position" not in err


def test_a_byte_order_mark_is_accepted():
    code, results, err = replay(BAD / "bom.jsonl")
    assert code == 0 and err == "" and results[-1]["type"] == "summary"


@pytest.mark.parametrize("options", [[], 0, False, "", "x"])
def test_options_that_are_not_an_object_are_refused(options):
    with pytest.raises(HistoryError, match="line 1: bad header: options must be an object, got "):
        parse_history(io.StringIO(json.dumps({**HEADER, "options": options}) + "\n"))


def test_the_reproducer_of_options_as_a_list():
    refused(BAD / "options_list_accepted.jsonl", "options must be an object, got []")


@pytest.mark.parametrize("options", [None, "absent"])
def test_absent_or_null_options_are_the_defaults(options):
    header = dict(HEADER)
    if options == "absent":
        del header["options"]
    else:
        header["options"] = options
    assert parse_history(io.StringIO(json.dumps(header)))[0].options == {}


def test_chips_have_an_upper_bound():
    header = {**HEADER, "game": "ferbli", "players": ["A", "B", "C"], "options": {"min": 1, "max": 10}}
    ok = Header.from_json({**header, "chips": [MAX_CHIPS, 0, 5]})
    assert ok.chips == (MAX_CHIPS, 0, 5)
    with pytest.raises(HistoryError, match="chips must be null or one integer 0..1,000,000,000 per player"):
        Header.from_json({**header, "chips": [MAX_CHIPS + 1, 0, 5]})


@pytest.mark.parametrize("number,fragment", [
    (str(MAX_INTEGER + 1), "integer 9007199254740992 is too large"),
    (str(-MAX_INTEGER - 1), "integer -9007199254740992 is too large"),
    ("1" * 30, "integer 111111111111...(30 digits) is too large"),
    ("1e400", "number 1e400 is too large for a double"),
    ("NaN", "NaN is not a JSON number"),
    ("-Infinity", "-Infinity is not a JSON number"),
])
def test_numbers_out_of_range_are_named(number, fragment):
    with pytest.raises(HistoryError, match=re.escape(f"line 2: {fragment}")):
        parse_history(io.StringIO(json.dumps(HEADER) + '\n{"type": "go", "seat": ' + number + "}\n"))


def test_the_largest_integer_is_read_exactly():
    _, events = parse_history(io.StringIO(json.dumps(HEADER) + f'\n{{"type": "go", "seat": {-MAX_INTEGER}}}\n'))
    assert events[0].event["seat"] == -MAX_INTEGER


def test_nesting_at_the_limit_is_read():
    value: object = 1
    for _ in range(MAX_NESTING - 1):
        value = [value]
    line = json.dumps({"type": "go", "seat": value})
    _, events = parse_history(io.StringIO(json.dumps(HEADER) + "\n" + line + "\n"))
    assert nesting(events[0].event) == MAX_NESTING
    with pytest.raises(HistoryError, match="nested more than"):
        parse_history(io.StringIO(json.dumps(HEADER) + "\n" + json.dumps({"type": "go", "seat": [value]})))


def test_brackets_inside_strings_do_not_count_as_nesting():
    line = json.dumps({"type": "go", "seat": 0, "note": "[" * 100})
    assert parse_history(io.StringIO(json.dumps(HEADER) + "\n" + line))[1][0].number == 2


def test_a_line_without_end_is_refused_after_the_limit_not_read_whole():
    stream = io.BytesIO(json.dumps(HEADER).encode() + b"\n" + b" " * (MAX_LINE_BYTES + 10))
    lines = bounded_lines(stream)
    next(lines)
    with pytest.raises(JsonLineError, match="line 2: longer than 1,048,576 bytes"):
        next(lines)
    assert stream.tell() <= len(json.dumps(HEADER)) + 2 + MAX_LINE_BYTES + 1


def test_a_line_of_exactly_the_limit_is_read():
    line = b"#" + b" " * (MAX_LINE_BYTES - 1) + b"\n"
    assert list(bounded_lines(io.BytesIO(line + b"x"))) == [line, b"x"]


def test_replay_of_dev_zero_stops_at_the_first_line():
    refused(Path("/dev/zero"), "line 1: longer than 1,048,576 bytes")


def test_events_are_read_as_they_are_consumed():
    # the second event line is broken: the first is still delivered before the error
    text = json.dumps(HEADER) + '\n{"type": "go", "seat": 0}\n{broken\n'
    header, events = stream_history(io.StringIO(text))
    assert header.game == "cribbage" and next(events).number == 2
    with pytest.raises(HistoryError, match="line 3: bad JSON"):
        next(events)


def test_replay_prints_the_lines_before_an_unreadable_one(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(HEADER) + '\n{"type": "go", "seat": 0}\n{broken\n')
    code, results, err = replay(path)
    assert code == 2 and [r["n"] for r in results] == [2] and "line 3: bad JSON" in err


def test_a_folder_is_not_a_history(tmp_path):
    refused(tmp_path, "cannot read")


def test_a_buy_whose_option_is_a_list_is_refused_and_the_replay_goes_on():
    code, results, err = replay(BAD / "ferbli_buy_list_option.jsonl")
    assert code == 0, err
    assert [r for r in results if r.get("ok") is False] == [
        {"n": 16, "ok": False, "error": "malformed buy event: 'option' must be one of upcard, replace, all, stand, "
                                         "got []"}]
    assert results[-1]["type"] == "summary"


@pytest.mark.parametrize("option", [["upcard"], {"a": 1}, 5, None])
def test_every_buy_option_type_is_named(option):
    lines = (BAD / "ferbli_buy_list_option.jsonl").read_text().splitlines()
    buy = next(i for i, line in enumerate(lines) if '"type": "buy"' in line)
    event = json.loads(lines[buy])
    event["option"] = option
    header, events = parse_history(io.StringIO("\n".join(lines[:buy] + [json.dumps(event)]) + "\n"))
    *_, last, summary = judge(header, events)
    assert last["ok"] is False and "'option' must be one of upcard" in last["error"]


def test_a_type_that_is_not_text_is_named():
    code, results, _ = replay(BAD / "type_is_number.jsonl")
    assert code == 0 and results[0] == {"n": 2, "ok": False,
                                        "error": "malformed event: 'type' must be text such as \"play\", got 5"}


def test_a_misspelt_event_field_is_refused_naming_it():
    code, results, _ = replay(BAD / "unknown_event_field_ignored.jsonl")
    assert code == 0 and results[0]["ok"] is False
    assert results[0]["error"] == ("malformed deal event: unknown field(s) 'crad', 'note' "
                                   "(a deal event has: card, hands, seat, to, up)")
    assert results[-1]["scores"] == [0, 0]


def test_a_card_typed_on_a_phone_is_read():
    code, results, _ = replay(BAD / "card_emoji_variation_selector.jsonl")
    assert code == 0 and results[0] == {"n": 2, "ok": True, "effects": []}


def test_a_bad_target_says_what_it_may_be():
    refused(BAD / "cribbage_target_neg.jsonl", "option target must be one of 121, 61 or null, got -5")


def test_the_field_table_knows_every_event_type_of_every_engine():
    import importlib

    from controller.event_fields import EVENT_FIELDS
    from controller.games import ENGINE_MODULES
    for game, module in ENGINE_MODULES.items():
        assert set(EVENT_FIELDS[game]) == set(importlib.import_module(module)._HANDLERS), game


def test_a_misspelt_header_field_is_refused_naming_it():
    with pytest.raises(HistoryError, match="line 1: bad header: unknown field\\(s\\) 'chisp' \\(a header has: chips, "
                                           "dealer, format, game, options, players\\)"):
        Header.from_json({**HEADER, "chisp": [1, 2]})
