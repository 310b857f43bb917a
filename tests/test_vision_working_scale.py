"""The general proposer's working scale (vision/working_scale.py): chosen from the calibrated glyph size or
the isolated cards' width, candidates mapped back onto the full frame's glyphs, and big real frames read
the same cards as at full resolution."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import recognize
from vision.calibration import GLYPH_RANGE_L
from vision.evaluate import read_manifest
from vision.glyphs import propose_indices
from vision.outline import CardOutline
from vision.recognize import UNKNOWN, Recognizer
from vision.sources import load_image
from vision.working_scale import WORKING_L, at_full_size, expected_length, working_scale

DATA = Path(__file__).parent / "data" / "cards"
TABLE = read_manifest(DATA / "table_camera.csv")


def _outline(width: float) -> CardOutline:
    return CardOutline(np.array([[0, 0], [width, 0], [width, 1.4 * width], [0, 1.4 * width]], np.float32))


def test_the_expected_length_is_the_calibrations_else_the_isolated_cards() -> None:
    calibrated = (GLYPH_RANGE_L[0] * 30, GLYPH_RANGE_L[1] * 30)
    assert expected_length(calibrated, [_outline(640)]) == pytest.approx(30)
    assert expected_length(None, [_outline(128), _outline(320), _outline(640)]) == pytest.approx(50)
    assert expected_length(None, []) is None


def test_only_indices_well_above_the_working_size_shrink_the_frame() -> None:
    assert working_scale(None) == 1.0
    assert working_scale(20.0) == 1.0  # a table camera's cards: searched as they are
    assert working_scale(WORKING_L / 0.9) == 1.0  # too little to gain
    assert working_scale(2 * WORKING_L) == pytest.approx(0.5)


def test_candidates_found_at_half_size_are_mapped_onto_the_full_frame() -> None:
    """Pixel i of a half-size frame covers full pixels 2i and 2i + 1: its centre is 2i + 0.5; boxes and
    areas grow with it, and a blob two candidates share stays one blob."""
    found = propose_indices(load_image(DATA / "edje_pinochle/table/cam_image5.jpg"))
    mapped = at_full_size(found, 0.5)
    assert len(mapped) == len(found) > 100
    for small, big in zip(found, mapped):
        assert (big.rank.cx, big.rank.cy, big.suit.cx, big.suit.cy) == pytest.approx(
            (2 * small.rank.cx + 0.5, 2 * small.rank.cy + 0.5, 2 * small.suit.cx + 0.5, 2 * small.suit.cy + 0.5))
        assert big.length == pytest.approx(2 * small.length) and big.up == pytest.approx(small.up)
        assert (big.rank.w, big.rank.h, big.rank.area) == (2 * small.rank.w, 2 * small.rank.h, 4 * small.rank.area)
    blobs = {id(b) for c in found for b in (c.rank, c.suit)}
    assert len({id(b) for c in mapped for b in (c.rank, c.suit)}) == len(blobs) < 2 * len(found)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_a_1600_px_frame_reads_at_its_working_scale_what_it_reads_at_full_size(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    image = load_image(DATA / name)
    big = cv2.resize(image, None, fx=1600 / image.shape[1], fy=1600 / image.shape[1], interpolation=cv2.INTER_CUBIC)
    reader = Recognizer()
    scales: list[float] = []
    general = recognize.general_candidates

    def spied(*args: object, **kwargs: object) -> object:
        scales.append(float(args[5]))  # type: ignore[arg-type]
        return general(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recognize, "general_candidates", spied)
    working = {c.card: np.array(c.quad) for c in reader.read(big) if c.card != UNKNOWN}
    monkeypatch.setattr(recognize, "working_scale", lambda length: 1.0)
    full = {c.card: np.array(c.quad) for c in reader.read(big) if c.card != UNKNOWN}
    assert sorted(working) == sorted(full)
    for card, quad in full.items():  # found in the same place (a quad posed from an index is not exact)
        width = np.linalg.norm(quad[1] - quad[0])
        assert np.linalg.norm(working[card].mean(axis=0) - quad.mean(axis=0)) < 0.25 * width
    assert set(working) <= set(TABLE[name]) and len(working) >= 3
    if name.endswith(("cam_image4.jpg", "cam_image5.jpg")):  # lone cards found: their width sets the scale
        assert scales[0] < 0.6
