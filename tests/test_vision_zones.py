"""The table's zones: the default layout for 2..8 seats (each seat's zone holds its player's played cards,
read there by the real detector), and zone names checked when a calibration loads."""
from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.calibration import Calibration, default_zones
from vision.detect import Detector
from vision.observations import OFF_ZONE, seat_zone
from vision.synthetic import (PlacedCard, SceneStyle, camera_homography, card_corners, card_names, cards_in_zone,
                              render, scene_calibration)
from vision.tracking import card_zones, zone_of

MIDDLE = ["deck", "starter", "crib", "centre"]
# up to four seats (cribbage's tables): 9.6 card widths across the frame, five cards in a row each;
# more seats (Femkort, Färbeln): 12.8 card widths, four fanned cards each
NARROW, WIDE = SceneStyle(size=(960, 540), card_width=100), SceneStyle(size=(1280, 720), card_width=100)


def seat_rows(seats: int) -> tuple[SceneStyle, int, float]:
    """The style, cards per seat and their spread this layout is checked at."""
    return (NARROW, 5, 0.6) if seats <= 4 else (WIDE, 4, 0.35)


def image_quad(card: PlacedCard, style: SceneStyle) -> np.ndarray:
    return cv2.perspectiveTransform(card_corners(card, style.card_width)[None], camera_homography(style))[0]


def inside(quad: np.ndarray, zone: list[list[float]]) -> bool:
    poly = np.array(zone, np.float32)
    return all(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in quad)


@pytest.mark.parametrize("seats", range(2, 9))
def test_default_zones_name_every_seat_clockwise_without_overlap(seats: int) -> None:
    w, h = size = (1280, 720)
    zones = default_zones(size, seats)
    assert list(zones) == [seat_zone(s) for s in range(seats)] + MIDDLE
    for a, b in ((a, b) for a in zones for b in zones if a < b):
        area, _ = cv2.intersectConvexConvex(np.array(zones[a], np.float32), np.array(zones[b], np.float32))
        assert area < 1.0, (a, b)
    assert all(0 <= x <= w and 0 <= y <= h for poly in zones.values() for x, y in poly)
    # seat 1 at the bottom, then clockwise as seen from above (image y points down)
    centres = [np.mean(zones[seat_zone(s)], axis=0) for s in range(seats)]
    bearings = [math.degrees(math.atan2(cy - h / 2, cx - w / 2)) for cx, cy in centres]
    assert centres[0][1] > 0.7 * h and [(b - bearings[0]) % 360 for b in bearings] == sorted(
        (b - bearings[0]) % 360 for b in bearings)


@pytest.mark.parametrize("seats", range(2, 9))
def test_each_zone_holds_what_is_laid_in_it(seats: int) -> None:
    style, per_seat, spread = seat_rows(seats)
    zones = default_zones(style.size, seats)
    for s in range(seats):
        row = cards_in_zone(card_names()[:per_seat], zones[seat_zone(s)], style, spread)
        assert all(inside(image_quad(card, style), zones[seat_zone(s)]) for card in row), seat_zone(s)
    for zone, cards in (("deck", 4), ("starter", 1), ("crib", 4), ("centre", 4)):  # piles, the starter alone
        pile = cards_in_zone([""] * cards, zones[zone], style, spread=0.1, face_up=False)
        assert all(inside(image_quad(card, style), zones[zone]) for card in pile), zone


@pytest.mark.parametrize("seats", [4, 8])
def test_the_detector_reads_each_seats_cards_in_its_zone(seats: int) -> None:
    style, per_seat, spread = seat_rows(seats)
    cal = scene_calibration(style, seats)
    names = iter(np.random.default_rng(seats).permutation(card_names()).tolist())
    laid: dict[str, str] = {}
    scene: list[PlacedCard] = []
    for zone in [seat_zone(s) for s in range(seats)] + ["starter"]:
        row = cards_in_zone([next(names) for _ in range(per_seat if zone != "starter" else 1)], cal.zones[zone],
                            style, spread)
        laid.update((card.card, zone) for card in row)
        scene += row
    scene += cards_in_zone(["", "", ""], cal.zones["crib"], style, spread=0.1, face_up=False)
    detection = Detector(calibration=cal).detect(render(scene, style, seed=seats)[0])
    read = {card.card: zone for zone, card in card_zones(detection, cal.zones) if card.card in laid}
    assert {card: laid[card] for card in read} == read  # every card read lies in the zone it was laid in
    assert len(read) >= 0.9 * len(laid)
    assert [zone_of(tuple(np.mean(g.quad, axis=0)), cal.zones) for g in detection.face_down] == ["crib"]


def test_calibrate_takes_two_to_eight_seats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "empty.png"), render([], NARROW)[0])
    cv2.imwrite(str(tmp_path / "card.png"), render([PlacedCard("AS", 480, 270, 0)], NARROW)[0])
    frames = ["--empty", str(tmp_path / "empty.png"), "--card", str(tmp_path / "card.png")]
    assert main(["vision", "calibrate", *frames, "--seats", "8", "--out", str(tmp_path / "cal.json")]) == 0
    assert "12 zones" in capsys.readouterr().out
    assert list(Calibration.load(tmp_path / "cal.json").zones) == [seat_zone(s) for s in range(8)] + MIDDLE
    for seats in ("1", "9"):
        assert main(["vision", "calibrate", *frames, "--seats", seats, "--out", str(tmp_path / "bad.json")]) == 2
        assert f"cardtable vision calibrate: error: seats must be 2..8, got {seats}" in capsys.readouterr().err
    assert not (tmp_path / "bad.json").exists()


def test_a_calibration_naming_an_unknown_zone_or_a_degenerate_one_is_refused(tmp_path: Path) -> None:
    cal = scene_calibration(NARROW)
    raw = cal.to_json()
    raw["zones"] = {**cal.zones, "seat-2-play": cal.zones["seat-2"]}  # the old name
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=r"bad calibration file .*: unknown zone 'seat-2-play' \(zones: seat-1, "):
        Calibration.load(path)
    raw["zones"] = {**cal.zones, "crib": [[1, 2], [3, 4]]}
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=r"zone .crib. needs 3 or more corners \[x, y\], got 2"):
        Calibration.load(path)
    cal.save(path)
    assert Calibration.load(path).zones == cal.zones
