"""The trainers' --no-photos (needs the 'train' extra): the fold that leaves the one photographed deck out
(vision/README.md, "Leave one deck out") trains on rendered samples alone, though the photos lie there."""
from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

import pytest

from vision.evaluate import split_of
from vision.training import cnn, suits
from vision.training.rendered_indices import rendered_indices
from vision.training.samples import SampleSet

PHOTO = Path(__file__).parent / "data/cards/ammememe_roboflow/single"


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """A cards folder whose ammememe_roboflow holds one 'train' photo and its label box."""
    folder = tmp_path / "cards/ammememe_roboflow"
    folder.mkdir(parents=True)
    name = next(f"photo{k}.jpg" for k in range(100) if split_of(f"photo{k}.jpg") == "train")
    shutil.copy(sorted(PHOTO.glob("*.jpg"))[0], folder / name)
    (folder / "boxes.csv").write_text(f"path,rank,suit,cx,cy,w,h\n{name},7,H,0.3,0.3,0.06,0.1\n")
    return tmp_path / "cards"


def test_the_photos_give_samples_and_none_are_read_without_a_root(photos: Path) -> None:
    assert len(cnn.collect(photos, 1, seed=0).x) > 0
    assert cnn.collect(None, 1, seed=0).x == []


def test_a_cnn_member_without_photos_trains_on_the_rendered_samples_alone(
        photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rendered = SampleSet()
    rendered_indices(20, rendered, encode=cnn.cnn_encoder)
    arrays = rendered.arrays()

    def trained_on(no_photos: bool) -> int:
        args = argparse.Namespace(root=photos, no_photos=no_photos, rounds=1, variants=1, seed=0, epochs=1, lr=3e-3)
        cnn.train_member(args, arrays, None, None)
        return int(re.findall(r"round 1: (\d+) samples", capsys.readouterr().err)[0])

    assert trained_on(no_photos=True) == len(arrays[0]) < trained_on(no_photos=False)


def test_the_cnn_without_photos_wants_a_threshold_not_the_pick_on_the_photos(photos: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        cnn.main([str(photos), "--no-photos"])
    assert exc.value.code == 2


def test_a_glyph_verifier_without_photos_trains_on_fewer_samples(
        photos: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def trained_on(*option: str) -> int:
        suits.main([str(photos), *option, "--synthetic", "0", "--rendered", "20", "--epochs", "1",
                    "--out", str(tmp_path / "suit.onnx")])
        return int(re.findall(r"^(\d+) samples, per class", capsys.readouterr().err, re.M)[0])

    assert trained_on("--no-photos") < trained_on()
