import io
import json

import pytest

from controller.history import Header, HistoryError, parse_history, write_history

HEADER = {"format": "cardtable-history/1", "game": "cribbage", "players": ["Ann", "Bo"], "dealer": 1,
          "options": {"target": 121}, "chips": None}


def lines(*objects: object, extra: str = "") -> io.StringIO:
    return io.StringIO("\n".join(json.dumps(o) for o in objects) + "\n" + extra)


def test_header_and_events_with_line_numbers_counting_blanks_and_comments() -> None:
    text = json.dumps(HEADER) + "\n# a comment\n\n" + json.dumps({"type": "go", "seat": 0}) + "\n"
    header, events = parse_history(io.StringIO(text))
    assert header.players == ("Ann", "Bo") and header.dealer == 1 and header.options == {"target": 121}
    assert [(e.number, e.event["type"]) for e in events] == [(4, "go")]


@pytest.mark.parametrize("change,fragment", [
    ({"format": "other/1"}, "format"),
    ({"game": "poker"}, "game must be one of"),
    ({"players": []}, "players"),
    ({"dealer": 2}, "dealer must be a seat 0..1"),
    ({"dealer": True}, "dealer"),
    ({"chips": [1]}, "chips"),
    ({"chips": [1, -1]}, "chips"),
])
def test_bad_header_is_named(change: dict, fragment: str) -> None:
    with pytest.raises(HistoryError, match=f"line 1: bad header: .*{fragment}"):
        parse_history(lines({**HEADER, **change}))


def test_bad_json_names_its_line() -> None:
    with pytest.raises(HistoryError, match="line 3: bad JSON"):
        parse_history(lines(HEADER, {"type": "go", "seat": 0}, extra="{not json\n"))


def test_empty_file() -> None:
    with pytest.raises(HistoryError, match="empty file"):
        parse_history(io.StringIO("\n# only a comment\n"))


def test_write_then_read_round_trip() -> None:
    header = Header.from_json(HEADER)
    events = [{"type": "deal", "hands": [["5H"], ["10S"]]}, {"type": "starter", "card": "JH"}]
    out = io.StringIO()
    write_history(out, header, events)
    again, read = parse_history(io.StringIO(out.getvalue()))
    assert again == header
    assert [line.event for line in read] == events
