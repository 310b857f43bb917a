"""The deal reader: a second camera whose whole frame is the zone `reader`, on rendered frames through the
real detector, tracker and watch loop."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from controller.cli import main
from vision.detect import Detector
from vision.observations import CameraStatus, CardPlaced, CardRemoved, DuplicateCard, UnknownCards
from vision.synthetic import PlacedCard, SceneStyle, SyntheticSceneSource, render
from vision.tracking import ReaderTracker, _on_reader
from vision.watch import Watcher

READER_STYLE = SceneStyle(size=(480, 360), card_width=150)  # a small camera, the card held close
DEALT = ["QS", "9D", "7C"]


def shown(card: str) -> list[PlacedCard]:
    return [PlacedCard(card, 240, 180, 8)]


# each card over the reader and taken away; the third replaces the second without a bare frame between
SCRIPT = [[], shown("QS"), [], shown("9D"), shown("7C"), []]
EXPECTED = [("placed", "QS"), ("removed", "QS"), ("placed", "9D"), ("removed", "9D"), ("placed", "7C"),
            ("removed", "7C")]


def test_each_card_shown_is_placed_in_the_reader_and_removed_when_taken_away() -> None:
    source = SyntheticSceneSource(SCRIPT, READER_STYLE, hold=6)
    events = [obs for _, obs in Watcher(source, ReaderTracker(Detector().detect, k=2, n=3))]
    assert events[0] == CameraStatus("online")
    assert [(type(o), o.card, o.zone) for o in events[1:] if isinstance(o, (CardPlaced, CardRemoved))] == [
        (CardPlaced if kind == "placed" else CardRemoved, card, "reader") for kind, card in EXPECTED]
    assert len(events) == 1 + len(EXPECTED)


def test_every_observation_of_the_reader_names_the_reader() -> None:
    assert _on_reader(CardPlaced("unknown", "table")) == CardPlaced("unknown", "reader")
    assert _on_reader(UnknownCards("table", 1)) == UnknownCards("reader", 1)
    assert _on_reader(DuplicateCard("QS", ("table", "table"))) == DuplicateCard("QS", ("reader", "reader"))


def test_cli_watch_reader(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "reader"
    folder.mkdir()
    for i, scene in enumerate(SCRIPT[:3]):  # the QS shown and taken away
        image = render(scene, READER_STYLE, seed=i)[0]
        for j in range(5):
            cv2.imwrite(str(folder / f"{i:02d}_{j}.png"), image)
    assert main(["vision", "watch", "--source", str(folder), "--reader", "--k", "2", "--n", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["type"], e["card"]) for e in lines[1:]] == EXPECTED[:2]
    assert {e["zone"] for e in lines[1:]} == {"reader"} and lines[1]["text"] == "QS placed in reader"
