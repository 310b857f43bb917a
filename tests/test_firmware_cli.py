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


def test_flash_hands_mpremote_the_package_files_under_their_own_names(tmp_path, monkeypatch):
    copied = {}

    def mpremote(command, check):  # stands in for mpremote only: it needs a real board's raw REPL
        files = command[command.index("cp") + 1:command.index(":")]
        copied.update({Path(f).name: Path(f).read_bytes() for f in files})
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(firmware, "mpremote_command", lambda: ["mpremote"])
    monkeypatch.setattr(firmware.subprocess, "run", mpremote)
    with VirtualPegBoard(link_path=tmp_path / "pb") as board:
        assert cli.main(["firmware", "flash", "--port", board.port_path]) == 0
    assert copied == {f.name: f.read_bytes() for f in firmware.firmware_files()}
    assert "main.py" in copied and "pegproto.py" in copied and "__init__.py" not in copied


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
