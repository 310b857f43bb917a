"""Observations as a contract: the exact table-log camera lines, read back strictly, and the zone names."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.observations import (CARD_NAMES, OFF_ZONE, SEAT_ZONES, ZONES, CameraStatus, CardPlaced, CardRemoved,
                                 DuplicateCard, FaceDownCount, Observation, ObservationError, UnknownCards,
                                 is_seat_zone, observation_from_json, observation_to_json, seat_of, seat_zone)

zones = st.sampled_from([*ZONES, OFF_ZONE])
cards = st.sampled_from(sorted(CARD_NAMES))
counts = st.integers(min_value=0, max_value=60)
observations: st.SearchStrategy[Observation] = st.one_of(
    st.builds(CardPlaced, st.one_of(cards, st.just("unknown")), zones),
    st.builds(CardRemoved, st.one_of(cards, st.just("unknown")), zones),
    st.builds(FaceDownCount, zones, counts),
    st.builds(UnknownCards, zones, counts),
    st.builds(DuplicateCard, cards, st.lists(zones, min_size=2, max_size=4).map(tuple)),
    st.builds(CameraStatus, st.sampled_from(["online", "offline", "bad_frame"]), st.one_of(st.none(), st.text())),
)


@given(st.floats(min_value=0, max_value=4e9, allow_nan=False), observations)
def test_every_observation_survives_its_json_line(t: float, obs: Observation) -> None:
    line = json.loads(json.dumps(observation_to_json(t, obs)))  # as a table log holds it
    assert observation_from_json(line) == (round(t, 3), obs)
    assert line["text"] == str(obs)


def test_the_table_log_lines_exactly() -> None:
    assert observation_to_json(3.2, CardPlaced("QS", "seat-2")) == {
        "t": 3.2, "type": "placed", "card": "QS", "zone": "seat-2", "text": "QS placed in seat-2"}
    assert observation_to_json(5, CardRemoved("unknown", "seat-2")) == {
        "t": 5, "type": "removed", "card": "unknown", "zone": "seat-2", "text": "unknown removed from seat-2"}
    assert observation_to_json(4.1, FaceDownCount("crib", 3)) == {
        "t": 4.1, "type": "face_down", "zone": "crib", "count": 3, "text": "3 face-down cards in crib"}
    assert observation_to_json(4.4, UnknownCards("seat-1", 1)) == {
        "t": 4.4, "type": "unknown", "zone": "seat-1", "count": 1, "text": "1 unreadable cards in seat-1"}
    assert observation_to_json(12.34567, DuplicateCard("7H", ("seat-1", "seat-3"))) == {
        "t": 12.346, "type": "duplicate", "card": "7H", "zones": ["seat-1", "seat-3"],
        "text": "7H seen twice (seat-1, seat-3): misread or second deck"}
    assert observation_to_json(1.0, CameraStatus("offline", "open failed")) == {
        "t": 1.0, "type": "camera", "status": "offline", "detail": "open failed", "text": "camera offline: open failed"}
    assert observation_to_json(1.0, CameraStatus("online"))["detail"] is None


def test_the_spec_examples_read_without_text_and_extra_fields_are_ignored() -> None:
    assert observation_from_json({"t": 1.0, "type": "placed", "card": "9D", "zone": "reader"}) == (
        1.0, CardPlaced("9D", "reader"))
    assert observation_from_json({"t": 6, "type": "camera", "status": "offline"}) == (6.0, CameraStatus("offline"))
    assert observation_from_json({"t": 4.6, "type": "duplicate", "card": "7H", "zones": ["seat-1", "seat-1"],
                                  "crop": "x.png"}) == (4.6, DuplicateCard("7H", ("seat-1", "seat-1")))


PLACED = {"t": 3.2, "type": "placed", "card": "QS", "zone": "seat-2"}


@pytest.mark.parametrize("change, message", [
    ({"t": None}, "field 't' must be a number of seconds, got None"),
    ({"t": True}, "field 't' must be a number of seconds, got True"),
    ({"t": "3.2"}, "field 't' must be a number of seconds, got '3.2'"),
    ({"t": -1}, "field 't' must be finite and not negative, got -1"),
    ({"t": float("inf")}, "field 't' must be finite and not negative, got inf"),
    ({"type": "moved"},
     "field 'type' must be one of placed, removed, face_down, unknown, duplicate, camera, got 'moved'"),
    ({"type": 3}, "field 'type' must be a string, got 3"),
    ({"card": "1S"}, "field 'card': '1S' is not a card"),
    ({"card": "qs"}, "field 'card': 'qs' is not a card"),
    ({"card": ["QS"]}, "field 'card' must be a card name, got list"),
    ({"zone": "seat-9"}, "field 'zone': unknown zone 'seat-9'"),
    ({"zone": "seat-2-play"}, "field 'zone': unknown zone 'seat-2-play'"),
    ({"zone": None}, "field 'zone' must be a zone name, got None"),
    ({"type": "face_down", "count": True}, "field 'count' must be a whole number, got True"),
    ({"type": "unknown", "count": 1.0}, "field 'count' must be a whole number, got 1.0"),
    ({"type": "unknown", "count": -2}, "field 'count' must not be negative, got -2"),
    ({"type": "face_down"}, "missing field 'count'"),
    ({"type": "duplicate", "card": "unknown", "zones": ["crib", "deck"]}, "field 'card': 'unknown' is not a card"),
    ({"type": "duplicate", "zones": ["crib"]}, "field 'zones' must name the two or more zones"),
    ({"type": "duplicate", "zones": "crib"}, "field 'zones' must be a list of zone names, got 'crib'"),
    ({"type": "duplicate", "zones": ["crib", 7]}, "field 'zones': unknown zone 7"),
    ({"type": "duplicate", "zones": ["crib", "pot"]}, "field 'zones': unknown zone 'pot'"),
    ({"type": "camera", "status": "asleep"}, "field 'status' must be one of online, offline, bad_frame, got 'asleep'"),
    ({"type": "camera", "status": "bad_frame", "detail": 3}, "field 'detail' must be a string or null, got 3"),
])
def test_a_bad_line_is_refused_naming_the_field(change: dict[str, Any], message: str) -> None:
    line = {**PLACED, **change}
    with pytest.raises(ObservationError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        observation_from_json(line)


def test_missing_fields_and_non_objects() -> None:
    for name in ("t", "type", "card", "zone"):
        with pytest.raises(ObservationError, match=f"^missing field '{name}'$"):
            observation_from_json({k: v for k, v in PLACED.items() if k != name})
    with pytest.raises(ObservationError, match="a camera line is a JSON object, got list"):
        observation_from_json([PLACED])
    assert issubclass(ObservationError, ValueError)


def test_seat_zones() -> None:
    assert SEAT_ZONES == tuple(f"seat-{n}" for n in range(1, 9))
    assert seat_zone(0) == "seat-1" and seat_zone(7) == "seat-8"
    assert [seat_of(z) for z in SEAT_ZONES] == list(range(8))
    assert is_seat_zone("seat-3") and not is_seat_zone("crib") and not is_seat_zone("seat-0")
    for bad in (-1, 8, True, 1.0):
        with pytest.raises(ValueError, match="seat must be a whole number 0..7"):
            seat_zone(bad)  # type: ignore[arg-type]
    for zone in ("crib", "seat-9", "seat-1-play"):
        with pytest.raises(ValueError, match=f"'{zone}' is not a seat zone"):
            seat_of(zone)
    assert set(ZONES) == {*SEAT_ZONES, "starter", "crib", "centre", "deck", "reader"}
