"""`cardtable firmware flash`: file list, port detection by USB vendor id, mpremote invocation, errors."""
import subprocess
import time
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from controller import cli
from controller.commands import firmware
from controller.pegboard.link import release_to_repl
from controller.pegboard.virtual import VirtualPegBoard


def _port(device, vid=None, pid=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_files_are_the_firmware_and_the_shared_codec():
    names = [f.name for f in firmware.firmware_files()]
    assert "main.py" in names and names[-1] == "pegproto.py"
    assert {"app.py", "board.py", "boardlink.py", "scene.py", "animations.py", "transport.py"} <= set(names)


def test_files_require_a_firmware_folder(tmp_path):
    with pytest.raises(firmware.FirmwareError, match="no firmware"):
        firmware.firmware_files(tmp_path)


def test_board_port_is_found_by_vendor_id():
    ports = [_port("/dev/ttyS0"), _port("/dev/ttyUSB0", 0x0403, 0x6001), _port("/dev/ttyACM0", 0x2E8A, 0x0005)]
    assert firmware.find_board_port(ports) == "/dev/ttyACM0"
    with pytest.raises(firmware.FirmwareError, match="no RP2040"):
        firmware.find_board_port(ports[:2])
    with pytest.raises(firmware.FirmwareError, match="several"):
        firmware.find_board_port(ports + [_port("/dev/ttyACM1", 0x2E8A, 0x0005)])


def test_flash_command_copies_everything_then_resets():
    files = [Path("/fw/main.py"), Path("/x/pegproto.py")]
    assert firmware.flash_command(["mpremote"], "/dev/ttyACM0", files) == [
        "mpremote", "connect", "/dev/ttyACM0", "fs", "cp", "/fw/main.py", "/x/pegproto.py", ":", "+", "reset"]


@pytest.fixture
def copied(monkeypatch):
    """What `firmware flash` hands mpremote to copy: file name -> bytes."""
    files = {}

    def mpremote(command, check):  # stands in for mpremote only: it needs a real board's raw REPL
        paths = command[command.index("cp") + 1:command.index(":")]
        files.update({Path(f).name: Path(f).read_bytes() for f in paths})
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(firmware, "mpremote_command", lambda: ["mpremote"])
    monkeypatch.setattr(firmware.subprocess, "run", mpremote)
    return files


def test_flash_hands_mpremote_the_package_files_under_their_own_names(tmp_path, copied):
    with VirtualPegBoard(link_path=tmp_path / "pb") as board:
        assert cli.main(["firmware", "flash", "--port", board.port_path]) == 0
    assert copied == {f.name: f.read_bytes() for f in firmware.firmware_files()}
    assert "main.py" in copied and "pegproto.py" in copied and "__init__.py" not in copied


def test_flash_takes_this_boards_wiring_from_an_edited_copy(tmp_path, copied, capsys):
    assert cli.main(["firmware", "wiring"]) == 0
    shipped = capsys.readouterr().out
    assert shipped == (firmware.firmware_folder() / "pegcfg.py").read_text()
    wiring = tmp_path / "pegcfg.py"
    wiring.write_text(shipped.replace("LED_PIN = 16", "LED_PIN = 2"))
    with VirtualPegBoard(link_path=tmp_path / "pb") as board:
        assert cli.main(["firmware", "flash", "--port", board.port_path, "--pegcfg", str(wiring)]) == 0
    assert copied["pegcfg.py"] == wiring.read_bytes() and b"LED_PIN = 2" in copied["pegcfg.py"]
    assert copied["board.py"] == (firmware.firmware_folder() / "board.py").read_bytes()


@pytest.mark.parametrize("edit, message", [
    (("LED_PIN = 16", "LED_PIN = 16 +"), "not Python"),
    (("LED_PIN = 16", "import os"), "line {line}: only NAME = value lines"),
    (("LED_PIN = 16", "LED_PIN = PIN"), "line {line}: LED_PIN must be a plain value"),
    (("LED_PIN = 16", "LED_PIN = '16'"), "LED_PIN must be set to a int, not '16'"),
    (("LED_PIN = 16", "LED_PIN = True"), "LED_PIN must be set to a int, not True"),
    (("LED_PIN = 16", ""), "LED_PIN must be set to a int"),
    (('LINK = "usb"', 'LINK = "wifi"'), "LINK must be one of usb, uart, not 'wifi'"),
    (('"holes": 121', '"holes": 100'), "GEOMETRY: holes must be 61 or 121"),
    (('"holes": 121', '"hole": 121'), "GEOMETRY: "),
])
def test_a_wiring_the_board_could_not_boot_with_is_refused_before_flashing(tmp_path, copied, capsys, edit, message):
    wiring = tmp_path / "pegcfg.py"
    shipped = (firmware.firmware_folder() / "pegcfg.py").read_text()
    assert edit[0] in shipped
    line = shipped[:shipped.index(edit[0])].count("\n") + 1
    wiring.write_text(shipped.replace(*edit))
    assert cli.main(["firmware", "flash", "--port", str(tmp_path / "ttyACM9"), "--pegcfg", str(wiring)]) == 2
    assert f"cardtable firmware flash: error: --pegcfg {wiring}: {message.format(line=line)}" in capsys.readouterr().err
    assert copied == {}


def test_a_missing_wiring_file_is_named(tmp_path, copied, capsys):
    assert cli.main(["firmware", "flash", "--pegcfg", str(tmp_path / "mine.py")]) == 2
    assert f"--pegcfg {tmp_path / 'mine.py'}: No such file or directory" in capsys.readouterr().err


def test_missing_mpremote_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setattr(firmware.shutil, "which", lambda name: None)
    monkeypatch.setattr(firmware.importlib.util, "find_spec", lambda name: None)
    assert cli.main(["firmware", "flash", "--port", "/dev/ttyACM0"]) == 2
    assert "mpremote is not installed" in capsys.readouterr().err


def test_flash_reports_a_board_that_is_not_there(tmp_path, capsys):
    assert cli.main(["firmware", "flash", "--port", str(tmp_path / "ttyACM9")]) == 2
    assert "cannot open" in capsys.readouterr().err


def test_release_hands_the_running_firmware_back_to_the_repl(tmp_path):
    # mpremote enters the raw REPL with Ctrl-C, which the firmware ignores: flashing first asks it to stop
    with VirtualPegBoard(link_path=tmp_path / "pb") as board:
        assert board.running
        assert release_to_repl(board.port_path)
        deadline = time.monotonic() + 1
        while board.running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not board.running
