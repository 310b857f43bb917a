"""Table logs: every line type read into a session input and written back; malformed lines named."""
from __future__ import annotations

import json

import pytest

from controller.table.log import TableLogError, input_to_json, parse_table_log

HEADER = {"format": "cardtable-table-log/1", "game": "femkort", "players": ["A", "B", "C"], "dealer": 0,
          "options": {}, "chips": None, "deal": "open"}
LINES = [
    {"t": 1.0, "type": "placed", "card": "9D", "zone": "reader"},
    {"t": 3.2, "type": "placed", "card": "QS", "zone": "seat-2"},
    {"t": 3.3, "type": "placed", "card": "unknown", "zone": "seat-3"},
    {"t": 4.1, "type": "face_down", "zone": "crib", "count": 3},
    {"t": 4.4, "type": "unknown", "zone": "seat-1", "count": 1},
    {"t": 4.6, "type": "duplicate", "card": "7H", "zones": ["seat-1", "seat-3"]},
    {"t": 5.0, "type": "removed", "card": "QS", "zone": "seat-2"},
    {"t": 6.0, "type": "camera", "status": "offline"},
    {"t": 7.0, "type": "button", "action": "go", "seat": 1},
    {"t": 7.5, "type": "button", "action": "next", "seat": None},
    {"t": 8.0, "type": "console", "event": {"type": "raise", "seat": 2, "amount": 4}},
    {"t": 9.0, "type": "console", "action": "resolve", "card": "QS"},
    {"t": 9.2, "type": "console", "action": "relay"},
    {"t": 9.5, "type": "console", "action": "undo"},
]


def plain(line: dict) -> dict:
    """A written line without the words for people (`text`) and an empty camera `detail`."""
    return {key: value for key, value in line.items() if key != "text" and not (key == "detail" and value is None)}


def read(*lines: object, header: dict = HEADER) -> tuple:
    return parse_table_log([json.dumps(header), *(json.dumps(line) for line in lines)])


def test_every_line_type_reads_and_writes_back_the_same():
    header, lines = read(*LINES)
    assert header.deal == "open" and header.header.players == ("A", "B", "C")
    assert [line.number for line in lines] == list(range(2, 2 + len(LINES)))
    assert [plain(input_to_json(line.t, line.input)) for line in lines] == LINES


def test_blank_and_comment_lines_count_but_make_no_input():
    _, lines = parse_table_log([json.dumps(HEADER), "", "# a note", json.dumps(LINES[1])])
    assert [line.number for line in lines] == [4]


def test_the_text_field_of_the_vision_is_ignored():
    _, lines = read({**LINES[1], "text": "QS placed in seat-2"})
    assert plain(input_to_json(lines[0].t, lines[0].input)) == LINES[1]


@pytest.mark.parametrize("line, message", [
    ({"t": 1, "type": "placed", "card": "QS", "zone": "seat-4"}, "no zone 'seat-4'"),
    ({"t": 1, "type": "placed", "card": "QS", "zone": "seat-2-play"}, "unknown zone 'seat-2-play'"),
    ({"t": 1, "type": "placed", "card": "QX", "zone": "seat-1"}, "'card'"),
    ({"t": 1, "type": "removed", "zone": "seat-1"}, "missing field 'card'"),
    ({"t": 1, "type": "face_down", "zone": "crib", "count": -1}, "'count'"),
    ({"t": 1, "type": "duplicate", "card": "7H", "zones": ["seat-1"]}, "'zones'"),
    ({"t": 1, "type": "duplicate", "card": "unknown", "zones": ["seat-1", "crib"]}, "'card'"),
    ({"t": 1, "type": "camera", "status": "asleep"}, "field 'status' must be one of"),
    ({"t": 1, "type": "button", "action": "go", "seat": 3}, "'seat' (0..2)"),
    ({"t": 1, "type": "button", "action": "next", "seat": 0}, "must be null"),
    ({"t": 1, "type": "button", "action": "shout", "seat": None}, "button 'action'"),
    ({"t": 1, "type": "console", "event": {"seat": 1}}, "console 'event'"),
    ({"t": 1, "type": "console", "action": "resolve", "card": None}, "'card'"),
    ({"t": 1, "type": "console", "action": "dance"}, "'action'"),
    ({"t": 1, "type": "wave"}, "unknown line type 'wave'"),
    ({"type": "placed", "card": "QS", "zone": "seat-1"}, "'t'"),
    ([1, 2], "JSON object"),
])
def test_a_malformed_line_is_named(line, message):
    with pytest.raises(TableLogError) as error:
        read(LINES[0], line)
    assert error.value.line == 3 and message in str(error.value)


def test_time_never_goes_back():
    with pytest.raises(TableLogError, match="line 3: 't' goes back"):
        read(LINES[1], LINES[0])


@pytest.mark.parametrize("header, message", [
    ({**HEADER, "format": "cardtable-history/1"}, "cardtable-table-log/1"),
    ({**HEADER, "deal": "half"}, "deal must be"),
    ({**HEADER, "players": []}, "players"),
    ({**HEADER, "game": "poker"}, "game must be"),
])
def test_a_bad_header_is_named(header, message):
    with pytest.raises(TableLogError) as error:
        read(header=header)
    assert error.value.line == 1 and message in str(error.value)


def test_bad_json_and_an_empty_file():
    with pytest.raises(TableLogError, match="line 2: bad JSON"):
        parse_table_log([json.dumps(HEADER), "{"])
    with pytest.raises(TableLogError, match="line 1: empty file"):
        parse_table_log(["", "# nothing"])
