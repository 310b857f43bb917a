"""The table's zones: the default layout for 2..8 seats, and zone names checked when a calibration loads."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.calibration import Calibration
from vision.synthetic import SceneStyle, scene_calibration


def test_a_calibration_naming_an_unknown_zone_is_refused(tmp_path: Path) -> None:
    cal = scene_calibration(SceneStyle(size=(960, 540), card_width=100))
    raw = cal.to_json()
    raw["zones"] = {**cal.zones, "seat-2-play": cal.zones["seat-2"]}  # the old name
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=r"bad calibration file .*cal.json: unknown zone 'seat-2-play' \(zones: seat-1, "):
        Calibration.load(path)
    cal.save(path)
    assert Calibration.load(path).zones == cal.zones
