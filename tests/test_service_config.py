"""The service's TOML configuration, `cardtable config check|init` and `cardtable console-pin`."""
from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest

from controller.cli import main
from controller.hardware.config import HardwareConfig, SeatPins
from controller.service.config import (DEFAULT_TEXT, CameraConfig, ConfigError, ServiceConfig, load_config,
                                       parse_config, with_pin_hash)
from controller.service.pin import PinError, hash_pin, verify_pin

SYNTHETIC = '[camera]\nsource = "synthetic"\n'


def test_the_default_file_is_every_default(tmp_path: Path) -> None:
    (tmp_path / "calibration.json").write_text("{}")
    assert parse_config(DEFAULT_TEXT, tmp_path) == ServiceConfig(
        camera=CameraConfig(calibration=tmp_path / "calibration.json"))


def test_settings_are_read_with_their_types_and_paths_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "cal.json").write_text("{}")
    (tmp_path / "deck.npz").write_bytes(b"")
    config = parse_config("""
state_directory = "state"
[camera]
source = "/dev/video0"
size = [640, 480]
calibration = "cal.json"
enrolment = "deck.npz"
fps = 10
[hardware]
seats = [[5, 6], [13, 19]]
buzzer = 4
[game]
name = "ferbli"
players = ["A", "B", "C"]
dealer = 2
chips = [20, 20, 25]
[game.options]
min = 1
max = 8
""", tmp_path)
    assert config.state_directory == tmp_path / "state"
    assert config.camera == CameraConfig("/dev/video0", (640, 480), tmp_path / "cal.json", tmp_path / "deck.npz",
                                         "52", 10.0)
    assert config.hardware == HardwareConfig(seats=(SeatPins(5, 6), SeatPins(13, 19)), buzzer=4)
    assert (config.game.name, config.game.players, config.game.dealer) == ("ferbli", ("A", "B", "C"), 2)
    assert config.game.options == {"min": 1, "max": 8} and config.game.chips == (20, 20, 25)


@pytest.mark.parametrize("text, key, words", [
    ("colour = 1", "colour", "unknown setting"),
    ("camera = 1", "camera", "must be a [camera] table"),
    (SYNTHETIC + "zoom = 2", "camera.zoom", "unknown setting"),
    (SYNTHETIC + "size = [1280]", "camera.size", "a list of 2 whole numbers"),
    (SYNTHETIC + "size = [1280, 0]", "camera.size", "positive"),
    (SYNTHETIC + 'fps = "fast"', "camera.fps", "a number"),
    (SYNTHETIC + 'deck = "36"', "camera.deck", "52, 32"),
    (SYNTHETIC + 'reads = 9', "camera.reads", "1..8"),
    (SYNTHETIC + 'reads = 2\nvotes = 3', "camera.votes", "1..reads (2)"),
    ('[camera]\nsource = "picamera2"', "camera.calibration", "required"),
    ('[camera]\ncalibration = "nowhere.json"', "camera.calibration", "no such file"),
    (SYNTHETIC + "[hardware]\nbuzzer = true", "hardware.buzzer", "a whole number"),
    (SYNTHETIC + "[hardware]\nbeeper = 18", "hardware.beeper", "unknown hardware settings"),
    (SYNTHETIC + "[hardware]\nbuzzer = 17", "hardware", "GPIO17 is assigned twice"),
    (SYNTHETIC + "[panel]\nport = 70000", "panel.port", "0..65535"),
    (SYNTHETIC + "[game]\nname = \"poker\"", "game.name", "cribbage, femkort, ferbli"),
    (SYNTHETIC + "[game]\nname = \"ferbli\"\nplayers = [\"A\", \"B\", \"C\"]", "game.chips", "played for chips"),
    (SYNTHETIC + "[game]\nchips = [5]", "game.chips", "one number per player (2)"),
    (SYNTHETIC + "[game]\nplayers = [\"A\", 2]", "game.players", "a list of strings"),
    (SYNTHETIC + "[game]\ndealer = 2", "game.dealer", "0..1"),
    (SYNTHETIC + "[game]\ndeal = \"open\"", "game.deal", "reader.source"),
    ("state_directory = 5", "state_directory", "a path"),
    ("[camera", "", "not valid TOML"),
])
def test_a_bad_setting_is_refused_naming_its_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, tmp_path)
    assert caught.value.key == key
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{key}: " if key else words)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_config_init_writes_a_file_config_check_accepts_once_calibrated(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "etc" / "config.toml"
    assert run_cli(["config", "init", str(path)], capsys)[0] == 0
    assert path.read_text() == DEFAULT_TEXT
    code, _, err = run_cli(["config", "check", str(path)], capsys)
    assert code == 2 and err.strip() == (f"cardtable config: error: camera.calibration: no such file: "
                                         f"{path.parent / 'calibration.json'}")
    (path.parent / "calibration.json").write_text("{}")
    code, out, _ = run_cli(["config", "check", str(path)], capsys)
    assert code == 0 and "good" in out and "console PIN not set" in out


def test_config_init_keeps_an_existing_file_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# mine\n")
    code, _, err = run_cli(["config", "init", str(path)], capsys)
    assert code == 2 and "exists" in err and path.read_text() == "# mine\n"
    assert run_cli(["config", "init", str(path), "--force"], capsys)[0] == 0
    assert path.read_text() == DEFAULT_TEXT


def test_console_pin_stores_a_salted_hash_that_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_TEXT)
    (tmp_path / "calibration.json").write_text("{}")
    monkeypatch.setattr("sys.stdin", io.StringIO("4711\n"))
    assert run_cli(["console-pin", "--config", str(path), "--stdin"], capsys)[0] == 0
    stored = load_config(path).console.pin_hash
    assert stored.startswith("scrypt$") and "4711" not in path.read_text()
    assert verify_pin("4711", stored) and not verify_pin("4712", stored)
    assert path.read_text() == DEFAULT_TEXT.replace('pin_hash = ""', f'pin_hash = "{stored}"')


def test_a_bad_pin_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_TEXT)
    for pin, why in (("12", "4 to 12 digits, not 2"), ("12a4", "digits only")):
        monkeypatch.setattr("sys.stdin", io.StringIO(pin + "\n"))
        code, _, err = run_cli(["console-pin", "--config", str(path), "--stdin"], capsys)
        assert code == 2 and why in err
    assert path.read_text() == DEFAULT_TEXT


def test_the_pin_hash_is_salted_and_a_damaged_one_is_an_error() -> None:
    first, second = hash_pin("1234"), hash_pin("1234")
    assert first != second and verify_pin("1234", first) and verify_pin("1234", second)
    assert not verify_pin("1234", "")  # no PIN set: the console stays locked
    for damaged in ("md5$abc", first.replace("16384", "1000"), first[:-6] + "!!!!!!"):
        with pytest.raises(PinError, match="console.pin_hash"):
            verify_pin("1234", damaged)


def test_the_pin_hash_goes_into_the_console_section_keeping_the_rest() -> None:
    text = "# top\n[console]\n# why\npin_hash = \"old\"  # set below\n[game]\nname = \"femkort\"\n"
    edited = with_pin_hash(text, "scrypt$new")
    assert tomllib.loads(edited) == {"console": {"pin_hash": "scrypt$new"}, "game": {"name": "femkort"}}
    assert edited.startswith("# top\n[console]\n# why\n")
    assert tomllib.loads(with_pin_hash("[game]\n", "h"))["console"] == {"pin_hash": "h"}
    assert tomllib.loads(with_pin_hash("[console]\n[game]\n", "h"))["console"] == {"pin_hash": "h"}
