"""Files the tool writes (issue 28): checked before work starts, never over an input, atomic, --force."""
import json
import os
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.output_files import OutputError, check_output, write_atomically, write_text_atomically

BAD = Path(__file__).parent / "data" / "bad-inputs" / "vision"
ENROL = Path(__file__).parent / "data" / "cards" / "enrol"


def test_check_output_refusals(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("the user's")
    with pytest.raises(OutputError, match="--out .*: is a folder"):
        check_output(tmp_path, option="--out")
    with pytest.raises(OutputError, match="folder .*missing does not exist"):
        check_output(tmp_path / "missing" / "x.json", option="--out")
    with pytest.raises(OutputError, match="is an input of this command"):
        check_output(mine, option="--out", inputs=[tmp_path / "other", mine], force=True)
    with pytest.raises(OutputError, match="exists and was not written by cardtable; pass --force"):
        check_output(mine, option="--out")
    assert check_output(mine, option="--out", force=True) == mine
    assert check_output(mine, option="--out", ours=lambda p: p.read_text() == "the user's") == mine
    assert check_output(tmp_path / "new.txt", option="--out") == tmp_path / "new.txt"
    assert mine.read_text() == "the user's"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "cal.json"
    target.write_text("old")

    def half_then_fail(stream):
        stream.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_atomically(target, half_then_fail)
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["cal.json"]


def test_an_atomic_write_keeps_the_replaced_files_mode(tmp_path):
    target = tmp_path / "cal.json"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomically(target, "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.json"
    write_text_atomically(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.fixture
def table(tmp_path):
    """An empty-table photo and the same with one card, as calibrate takes them."""
    empty = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    card = empty.copy()
    cv2.rectangle(card, (300, 200), (380, 315), (250, 250, 250), -1)
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    cv2.imwrite(str(tmp_path / "card.png"), card)
    return tmp_path


def calibrate(folder: Path, *extra: str) -> int:
    return main(["vision", "calibrate", "--empty", str(folder / "empty.png"), "--card", str(folder / "card.png"),
                 *extra])


def test_calibrate_never_writes_over_its_input_photo(table, capsys):
    before = (table / "empty.png").read_bytes()
    for force in ([], ["--force"]):
        assert calibrate(table, "--out", str(table / "empty.png"), *force) == 2
        assert "is an input of this command" in capsys.readouterr().err
    assert (table / "empty.png").read_bytes() == before


def test_calibrate_replaces_its_own_file_but_asks_before_another(table, capsys):
    out = table / "cal.json"
    assert calibrate(table, "--out", str(out)) == 0
    assert calibrate(table, "--out", str(out)) == 0  # a calibration it wrote: replaced
    assert json.loads(out.read_text())["card_width_px"] > 0
    notes = table / "notes.json"
    notes.write_text('{"mine": true}')
    assert calibrate(table, "--out", str(notes)) == 2
    assert "pass --force" in capsys.readouterr().err and notes.read_text() == '{"mine": true}'
    assert calibrate(table, "--out", str(notes), "--force") == 0
    assert "card_width_px" in json.loads(notes.read_text())


def test_calibrate_into_a_missing_folder_is_refused_before_reading(table, capsys):
    assert calibrate(table, "--out", str(table / "missing_dir" / "x.json")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "folder" in err and "missing_dir does not exist" in err


def test_capture_checks_its_output_before_opening_the_camera(tmp_path, capsys):
    for out, fragment in [(tmp_path / "noext", "not an image file name"),
                          (tmp_path / "nope" / "x.png", "does not exist"), (tmp_path, "is a folder")]:
        # /dev/video99 would time out after --timeout: a refusal before opening it is immediate
        assert main(["vision", "capture", "--source", "/dev/video99", "--out", str(out), "--timeout", "30"]) == 2
        assert fragment in capsys.readouterr().err
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"not mine")
    assert main(["vision", "capture", "--source", "synthetic", "--out", str(photo)]) == 2
    assert "pass --force" in capsys.readouterr().err and photo.read_bytes() == b"not mine"
    assert main(["vision", "capture", "--source", "synthetic", "--out", str(photo), "--force"]) == 0
    assert cv2.imread(str(photo)).shape == (540, 960, 3)


def test_capture_never_writes_over_the_video_it_reads(tmp_path, capsys):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.zeros((40, 60, 3), np.uint8))
    assert main(["vision", "capture", "--source", str(folder / "a.png"), "--out", str(folder / "a.png"),
                 "--force"]) == 2
    assert "is an input of this command" in capsys.readouterr().err


def test_enroll_writes_the_file_it_names_and_that_name_loads(tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("QS_1.jpg", "QS_2.jpg", "KD_1.jpg", "KD_2.jpg"):
        shutil.copy(ENROL / name, photos / name)
    out = tmp_path / "mydeck"
    assert main(["vision", "enroll", str(photos), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"use it with --model {out}" in printed and out.is_file() and not Path(f"{out}.npz").exists()
    assert main(["vision", "detect", str(photos / "QS_1.jpg"), "--model", str(out)]) == 0
    assert main(["vision", "enroll", str(photos), "--out", str(out)]) == 0  # its own file: replaced
    capsys.readouterr()
    before = (photos / "QS_1.jpg").read_bytes()
    assert main(["vision", "enroll", str(photos), "--out", str(photos / "QS_1.jpg"), "--force"]) == 2
    assert "is an input of this command" in capsys.readouterr().err
    assert (photos / "QS_1.jpg").read_bytes() == before


@pytest.mark.parametrize("content", [b"hello", b"", b"PK\x03\x04 broken zip"])
def test_a_file_that_is_not_a_model_is_named_and_never_unpickled(tmp_path, capsys, content):
    model = tmp_path / "model.npz"
    model.write_bytes(content)
    assert main(["vision", "detect", str(ENROL / "QS_1.jpg"), "--model", str(model)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot load card model {model}" in err
    assert "pickle" not in err.lower()


def test_a_write_that_must_not_replace_refuses_a_file_that_appeared(tmp_path):
    target = tmp_path / "game.jsonl"
    target.write_text("someone else's")
    with pytest.raises(FileExistsError):
        write_atomically(target, lambda stream: stream.write(b"mine"), replace=False)
    assert target.read_text() == "someone else's" and os.listdir(tmp_path) == ["game.jsonl"]
    fresh = tmp_path / "new.jsonl"
    write_atomically(fresh, lambda stream: stream.write(b"mine"), replace=False)
    assert fresh.read_text() == "mine" and sorted(os.listdir(tmp_path)) == ["game.jsonl", "new.jsonl"]
