"""The casts measurement (vision/training/casts.py) with a folder of retrained networks (--models) and the
crops of the cards it names wrong (--crops), on a real photo of the held-out split."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vision.cnn import DEFAULT_CNN
from vision.training.casts import main

CARDS = Path(__file__).parent / "data/cards"
PHOTO = "ammememe_roboflow/overhead/WIN_20240627_11_36_55_Pro_jpg.rf.cda267a40d8a340b8a323155516acfd5.jpg"


def manifest(tmp_path: Path, cards: list[str]) -> Path:
    path = tmp_path / "manifest.csv"
    path.write_text("path,rank,suit\n" + "".join(f"{PHOTO},{c[:-1]},{c[-1]}\n" for c in cards))
    return path


def test_a_card_the_labels_lack_is_named_wrong_and_its_crop_saved(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The photo's 8H left out of the labels: reading it is a wrong card, and its crop is kept."""
    main([str(manifest(tmp_path, ["AH", "3H", "9C", "7D", "2H"])), "--root", str(CARDS), "--casts", "none",
          "--crops", str(tmp_path / "wrong")])
    assert "named wrong" in capsys.readouterr().out
    assert [p.name for p in (tmp_path / "wrong/none").iterdir()] == [f"{Path(PHOTO).stem}_8H.png"]


def test_the_models_folders_networks_read_the_photos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder whose index CNN is the shipped one with a threshold no index reaches: only what a face's pips
    read is named (vision/recognize.py), not the six cards the shipped networks read."""
    folder = tmp_path / "models"
    folder.mkdir()
    meta = json.loads(DEFAULT_CNN.read_text())
    (folder / "generic.json").write_text(json.dumps({**meta, "threshold": 1.01}))
    for member in meta["members"]:
        shutil.copy(DEFAULT_CNN.with_name(member), folder / member)
    cards = manifest(tmp_path, ["8H", "AH", "3H", "9C", "7D", "2H"])
    main([str(cards), "--root", str(CARDS), "--casts", "none"])
    assert capsys.readouterr().out.startswith("none: 6 cards, 6 read")
    main([str(cards), "--root", str(CARDS), "--casts", "none", "--models", str(folder)])
    assert int(capsys.readouterr().out.split()[3]) <= 1
