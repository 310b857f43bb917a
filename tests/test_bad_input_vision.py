"""Vision inputs that once crashed or misled the command line (issue 28): images, calibrations, manifests,
arguments. Each is refused in one line naming the file, field or option."""
import json
import shutil
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.calibration import Calibration
from vision.evaluate import read_manifest
from vision.image_header import encoded_size, is_truncated_jpeg
from vision.manifest import manifest_rows
from vision.sources import MAX_FRAME_PIXELS, ImageFolderSource, check_frame, load_image

BAD = Path(__file__).parent / "data" / "bad-inputs" / "vision"
PHOTO = Path(__file__).parent / "data" / "cards" / "enrol" / "QS_1.jpg"


def one_error_line(capsys, command: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"cardtable vision {command}: error: "), err
    assert "Traceback" not in err
    return err


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height (its data is one compressed row, not enough)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def test_the_decompression_bomb_is_refused_from_its_header():
    assert encoded_size((BAD / "bomb.png").read_bytes()) == (100000, 100000)
    with pytest.raises(ValueError, match="too large: 100000x100000 px"):
        load_image(BAD / "bomb.png")


@pytest.mark.parametrize("command", ["detect", "calibrate"])
def test_the_bomb_is_one_line_in_every_command(tmp_path, capsys, command):
    argv = {"detect": ["detect", str(BAD / "bomb.png"), "--json"],
            "calibrate": ["calibrate", "--empty", str(BAD / "bomb.png"), "--card", str(PHOTO),
                          "--out", str(tmp_path / "cal.json")]}[command]
    code = main(["vision", *argv])
    if command == "detect":  # detect reports each image's error and goes on
        assert code == 1 and "too large: 100000x100000" in json.loads(capsys.readouterr().out)[0]["error"]
    else:
        assert code == 2 and "too large" in one_error_line(capsys, command)
        assert not (tmp_path / "cal.json").exists()


def test_a_folder_with_a_bomb_is_watched_past_it(tmp_path):
    shutil.copy(BAD / "bomb.png", tmp_path / "a.png")
    cv2.imwrite(str(tmp_path / "b.png"), np.full((64, 64, 3), 90, np.uint8))
    source = ImageFolderSource(tmp_path)
    frame = source.read()
    assert frame is not None and frame.image.shape == (64, 64, 3)
    assert source.last_error is not None and "too large" in source.last_error


@pytest.mark.parametrize("width,height", [(20000, 20000), (8193, 100), (4097, 4097)])
def test_frames_over_the_documented_size_are_refused(tmp_path, width, height):
    path = tmp_path / "big.png"
    path.write_bytes(png_claiming(width, height))
    with pytest.raises(ValueError, match=f"too large: {width}x{height} px"):
        load_image(path)


def test_a_frame_at_the_limit_is_accepted():
    assert check_frame(np.zeros((4096, 4096), np.uint8)).shape == (4096, 4096)
    assert 4096 * 4096 == MAX_FRAME_PIXELS
    with pytest.raises(ValueError, match="too large"):
        check_frame(np.zeros((4097, 4096), np.uint8))


def test_a_truncated_jpeg_is_refused_not_half_read():
    data = (BAD / "trunc50.jpg").read_bytes()
    assert is_truncated_jpeg(data) and not is_truncated_jpeg(PHOTO.read_bytes())
    with pytest.raises(ValueError, match="truncated JPEG"):
        load_image(BAD / "trunc50.jpg")


def test_the_header_sizes_agree_with_the_decoder(tmp_path):
    image = np.zeros((37, 53, 3), np.uint8)
    for suffix in (".png", ".jpg", ".bmp"):
        ok, data = cv2.imencode(suffix, image)
        assert ok and encoded_size(data.tobytes()) == (53, 37), suffix
    assert encoded_size(PHOTO.read_bytes()) == tuple(reversed(cv2.imread(str(PHOTO)).shape[:2]))
    assert encoded_size(b"GIF89a") is None


@pytest.mark.parametrize("name,fragment", [
    ("c_inf_width.json", "card_width_px must be a number from 10 to 1280, got inf"),
    ("c_huge_width.json", "card_width_px must be a number from 10 to 1280, got 1000000000.0"),
    ("c_nan_width.json", "card_width_px must be a number from 10 to 1280, got nan"),
    ("c_lab_str.json", "table_lab must be a list of 3 numbers, got ['a', 'b', 'c']"),
    ("c_frame3.json", "frame_size must be a list of 2 whole numbers, got [1280, 720, 3]"),
])
def test_calibration_values_are_checked_on_load(capsys, name, fragment):
    with pytest.raises(ValueError, match="bad calibration file") as refused:
        Calibration.load(BAD / name)
    assert fragment in str(refused.value)
    assert main(["vision", "detect", str(PHOTO), "--calibration", str(BAD / name)]) == 2
    assert fragment in one_error_line(capsys, "detect")


@pytest.mark.parametrize("change,fragment", [
    ({"frame_size": [1280, 0]}, "frame_size too small"),
    ({"frame_size": [100000, 720]}, "frame_size too large"),
    ({"frame_size": [1280.5, 720]}, "2 whole numbers"),
    ({"card_height_px": "90"}, "card_height_px must be a number"),
    ({"table_lab": [1, 2, 300]}, "table_lab[2] must be a number from 0 to 255"),
    ({"table_lab_std": -1}, "table_lab_std must be a number from 0"),
    ({"zones": {"crib": [[0, 0], [10, 0]]}}, "zone 'crib' needs 3 or more corners [x, y], got 2"),
    ({"zones": {"crib": [[0, 0], [10, 0], [5, 1e9]]}}, "zone 'crib' point 2 y must be a number from 0 to 720"),
    ({"zones": {"crib": [[0, 0], [10, 0], [5]]}}, "zone 'crib' point 2 must be a list of 2 numbers"),
    ({"zones": []}, "'zones' must be an object"),
])
def test_each_calibration_field_is_named(tmp_path, change, fragment):
    raw = {**json.loads((BAD / "cal.json").read_text()), **change}
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="bad calibration file") as refused:
        Calibration.load(path)
    assert fragment in str(refused.value)


def test_the_valid_calibration_loads_and_a_bom_is_accepted(tmp_path):
    cal = Calibration.load(BAD / "cal.json")
    assert cal.frame_size == (1280, 720) and "seat-1" in cal.zones
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (BAD / "cal.json").read_bytes())
    assert Calibration.load(path) == cal


@pytest.mark.parametrize("name,fragment", [
    ("m_short_row.csv", "line 2: 2 field(s), the columns are path,rank,suit"),
    ("m_quote.csv", "line 2: unexpected end of data"),
])
def test_malformed_manifests_name_the_line(capsys, name, fragment):
    with pytest.raises(ValueError, match="line 2"):
        manifest_rows(BAD / name)
    for command in ("eval", "enroll"):
        argv = [command, str(BAD / name)] + (["--out", "/nonexistent-dir/x.npz"] if command == "enroll" else [])
        assert main(["vision", *argv]) == 2
        err = one_error_line(capsys, command)
        assert fragment in err or "does not exist" in err


def test_a_manifest_saved_by_a_spreadsheet_with_a_bom_is_read():
    assert read_manifest(BAD / "m_bom.csv") == {"scene.png": ["AS"]}
    assert read_manifest(BAD / "m_ok.csv") == {"scene.png": ["AS", "10H", "QS"]}


def test_an_overlong_manifest_field_names_its_line(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("path,rank,suit\n" + "a.png,A,S\n" + "b.png,A," + "S" * 200_000 + "\n")
    with pytest.raises(ValueError, match="line 3: field larger than field limit"):
        manifest_rows(path)


@pytest.mark.parametrize("argv,fragment", [
    (["detect", str(PHOTO), "--threshold", "0"], "argument --threshold: must be a number above 0 and at most 1"),
    (["detect", str(PHOTO), "--threshold", "-0.5"], "argument --threshold: must be a number above 0"),
    (["detect", str(PHOTO), "--threshold", "2"], "at most 1, got '2'"),
    (["detect", str(PHOTO), "--threshold", "inf"], "got 'inf'"),
    (["detect", str(PHOTO), "--threshold", "nan"], "got 'nan'"),
    (["eval", str(BAD / "m_ok.csv"), "--resize", "0x0"], "--resize 0x0 too small"),
    (["eval", str(BAD / "m_ok.csv"), "--resize", "100000x100000"], "--resize 100000x100000 too large"),
    (["eval", str(BAD / "m_ok.csv"), "--resize", "big"], "--resize wants WIDTHxHEIGHT, got 'big'"),
    (["capture", "--source", "synthetic", "--out", "x.png", "--timeout", "nan"], "argument --timeout"),
    (["capture", "--source", "synthetic", "--out", "x.png", "--skip", "-1"], "argument --skip"),
    (["watch", "--source", "synthetic", "--fps", "0"], "argument --fps"),
    (["calibrate", "--empty", "a.png", "--card", "b.png", "--seats", "two"], "argument --seats"),
])
def test_bad_arguments_are_one_line_naming_the_option(capsys, argv, fragment):
    with pytest.raises(SystemExit) as exited:
        code = main(["vision", *argv])
        raise SystemExit(code)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err, err
