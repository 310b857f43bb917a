"""The values of a calibration file, checked when it is loaded (it may have been edited by hand).

Each value must be the right kind and within what a camera frame allows, or the error names the field:
Infinity once raised an OverflowError, 1e9 px asked for petabytes, NaN or text broke `watch` on its first
frame, and a three-value frame size was "too many values to unpack".
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from vision.sources import check_frame_size

MIN_CARD_PX = 10.0  # as measure_card refuses a card narrower than this
MAX_LAB_STD = 255.0 * math.sqrt(3)  # the farthest two 8-bit Lab colours lie apart


class CalibrationValueError(ValueError):
    """A calibration field with a value it cannot have; the message names the field."""


def checked_fields(raw: Any) -> dict[str, Any]:
    """The Calibration constructor's arguments from a loaded JSON object, every value checked."""
    if not isinstance(raw, Mapping):
        raise CalibrationValueError(f"the file must hold a JSON object, not {type(raw).__name__}")
    for name in ("frame_size", "card_width_px", "card_height_px", "table_lab", "table_lab_std"):
        if name not in raw:
            raise CalibrationValueError(f"no '{name}' (run 'cardtable vision calibrate')")
    width, height = _numbers(raw["frame_size"], "frame_size", 2, whole=True)
    try:
        check_frame_size(int(width), int(height), what="frame_size")
    except ValueError as exc:
        raise CalibrationValueError(str(exc)) from None
    longest = max(width, height)
    return {
        "frame_size": (int(width), int(height)),
        "card_width_px": _within(raw["card_width_px"], "card_width_px", MIN_CARD_PX, longest),
        "card_height_px": _within(raw["card_height_px"], "card_height_px", MIN_CARD_PX, longest),
        "table_lab": tuple(_within(v, f"table_lab[{i}]", 0.0, 255.0)
                           for i, v in enumerate(_numbers(raw["table_lab"], "table_lab", 3))),
        "table_lab_std": _within(raw["table_lab_std"], "table_lab_std", 0.0, MAX_LAB_STD),
        "zones": _zones(raw.get("zones", {}), width, height),
    }


def _zones(zones: Any, width: float, height: float) -> dict[str, list[list[float]]]:
    if not isinstance(zones, Mapping):
        raise CalibrationValueError(f"'zones' must be an object of zone name -> polygon, not {type(zones).__name__}")
    checked = {}
    for name, polygon in zones.items():
        if not isinstance(polygon, list) or len(polygon) < 3:
            got = len(polygon) if isinstance(polygon, list) else _shown(polygon)
            raise CalibrationValueError(f"zone {name!r} needs 3 or more corners [x, y], got {got}")
        points = []
        for i, point in enumerate(polygon):
            x, y = _numbers(point, f"zone '{name}' point {i}", 2)
            points.append([_within(x, f"zone '{name}' point {i} x", 0.0, width),
                           _within(y, f"zone '{name}' point {i} y", 0.0, height)])
        checked[str(name)] = points
    return checked


def _numbers(value: Any, field: str, count: int, whole: bool = False) -> list[float]:
    kind = "whole numbers" if whole else "numbers"
    if not isinstance(value, list) or len(value) != count or not all(_is_number(v, whole) for v in value):
        raise CalibrationValueError(f"{field} must be a list of {count} {kind}, got {_shown(value)}")
    return [float(v) for v in value]


def _within(value: Any, field: str, low: float, high: float) -> float:
    if not _is_number(value) or not low <= value <= high:
        raise CalibrationValueError(f"{field} must be a number from {low:g} to {high:g}, got {_shown(value)}")
    return float(value)


def _is_number(value: Any, whole: bool = False) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) if whole else math.isfinite(value)


def _shown(value: Any) -> str:
    return repr(value)[:40]
