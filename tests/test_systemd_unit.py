"""The systemd unit and user: what the service needs, verified by systemd's own tools."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.cli import build_parser

SYSTEMD = Path(__file__).parents[1] / "systemd"
UNIT = SYSTEMD / "cardtable.service"
EXEC = "/opt/cardtable/venv/bin/cardtable"
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze missing (.ci/run installs systemd)")


def settings(path: Path) -> dict[str, list[str]]:
    """Every `Key=value` of a unit, by key (keys may repeat), comments and sections left out."""
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_runs_the_installed_service_as_systemd_expects() -> None:
    unit = settings(UNIT)
    assert unit["ExecStart"] == [f"{EXEC} run --config /etc/cardtable/config.toml"]
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert int(unit["WatchdogSec"][0]) > 0 and unit["Restart"] == ["on-failure"]
    assert unit["User"] == ["cardtable"] and unit["StateDirectory"] == ["cardtable"]
    assert unit["WorkingDirectory"] == ["/var/lib/cardtable"]  # writable: lgpio's FIFOs
    assert set(unit["SupplementaryGroups"][0].split()) == {"gpio", "video", "dialout"}


def test_the_unit_starts_a_command_the_cli_has() -> None:
    args = build_parser().parse_args(shlex.split(settings(UNIT)["ExecStart"][0])[1:])
    assert (args.command, args.config) == ("run", Path("/etc/cardtable/config.toml"))


def test_the_hardening_leaves_gpio_camera_and_serial_open() -> None:
    unit = settings(UNIT)
    assert unit["DevicePolicy"] == ["closed"] and "PrivateDevices" not in unit
    allowed = {value.split()[0] for value in unit["DeviceAllow"]}
    assert {"char-gpiochip", "/dev/gpiomem", "char-video4linux", "char-media", "char-dma_heap",
            "char-ttyACM"} <= allowed
    assert all(value.split()[1] == "rw" for value in unit["DeviceAllow"])
    assert "ProcSubset" not in unit  # gpiozero reads the board revision from /proc


def verifiable_copy(tmp_path: Path, unit: Path = UNIT) -> Path:
    """The unit with its one machine-specific path, the venv's cardtable, pointing at an executable that
    exists here (verify checks it); nothing else changed."""
    executable = tmp_path / "cardtable"
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace(EXEC, str(executable)))
    return copy


@needs_analyze
def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    run = subprocess.run(["systemd-analyze", "verify", str(verifiable_copy(tmp_path))],
                         capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr) == (0, "")  # verify exits 0 even for misspelled keys: stderr tells


@needs_analyze
def test_the_exposure_is_at_most_2(tmp_path: Path) -> None:
    run = subprocess.run(["systemd-analyze", "security", "--offline=true", str(verifiable_copy(tmp_path))],
                         capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for cardtable\.service: (\d+\.\d+)", run.stdout)
    assert score is not None, run.stdout[-500:] + run.stderr
    assert float(score[1]) <= 2.0


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers missing")
def test_sysusers_makes_the_user_in_the_device_groups(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    run = subprocess.run(["systemd-sysusers", f"--root={tmp_path}", str(SYSTEMD / "cardtable.sysusers")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    passwd = {line.split(":")[0]: line.split(":") for line in (tmp_path / "etc/passwd").read_text().splitlines()}
    assert passwd["cardtable"][5:] == ["/var/lib/cardtable", "/usr/sbin/nologin"]
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in
              (tmp_path / "etc/group").read_text().splitlines()}
    assert all("cardtable" in groups[name] for name in ("gpio", "video", "dialout"))
