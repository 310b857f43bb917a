"""The mended labels of the shared photos (vision/training/label_fixes.py): a card the labels leave out is
added, a card labelled as another replaced, a fix whose label is gone refused by name; the shipped fixes
file is well formed."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from vision.model import RANKS, SUITS
from vision.training.label_fixes import FIXES, mended


def _fixes(tmp_path: Path, rows: str) -> Path:
    path = tmp_path / "fixes.csv"
    path.write_text("path,rank,suit,was\n" + rows)
    return path


def test_a_missing_card_is_added_and_a_wrong_label_replaced(tmp_path: Path) -> None:
    fixes = _fixes(tmp_path, "a.jpg,6,C,\nb.jpg,3,C,4C\nelsewhere.jpg,2,S,\n")
    truth = {"a.jpg": ["3H"], "b.jpg": ["2S", "4C"], "c.jpg": ["KD"]}
    assert mended(truth, fixes) == {"a.jpg": ["3H", "6C"], "b.jpg": ["2S", "3C"], "c.jpg": ["KD"]}
    assert truth["b.jpg"] == ["2S", "4C"]  # the caller's labels are left as they were


def test_a_fix_whose_label_is_gone_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="b.jpg has no 4C label to mend"):
        mended({"b.jpg": ["3C"]}, _fixes(tmp_path, "b.jpg,3,C,4C\n"))


def test_the_shipped_fixes_name_cards() -> None:
    with FIXES.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8
    for row in rows:
        assert row["path"].startswith(("single/images/", "overhead/images/"))
        assert row["rank"] in RANKS and row["suit"] in SUITS
        assert row["was"] == "" or row["was"][:-1] in RANKS and row["was"][-1] in SUITS
