"""`cardtable install-service`: the unit, the user and the udev rule written from the package into a root
folder, the unit verified by systemd's own `systemd-analyze verify` and the user made by `systemd-sysusers`
from what was written; a file there that is not cardtable's refused (nothing written) unless --force; and
the system's /etc refused to a user who is not root."""
from __future__ import annotations

import os
from importlib import resources
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.install import installed_executable
from test_systemd_unit import EXEC, SYSTEMD, needs_analyze

ROOT = Path(__file__).parents[1]
WRITTEN = {"etc/systemd/system/cardtable.service": "cardtable.service",
           "etc/sysusers.d/cardtable.conf": "cardtable.sysusers",
           "etc/udev/rules.d/99-cardtable-pegboard.rules": "99-cardtable-pegboard.rules"}


def install(root: Path, *more: str) -> int:
    return main(["install-service", "--root", str(root), *more])


def test_the_files_are_the_packages_with_the_unit_running_this_cardtable(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert install(tmp_path) == 0
    executable = installed_executable()
    for target, source in WRITTEN.items():
        shipped = (SYSTEMD / source).read_text()
        assert (tmp_path / target).read_text() == shipped.replace(EXEC, executable)
        assert (tmp_path / target).stat().st_mode & 0o777 == 0o644
    assert f"ExecStart={executable} run --config /etc/cardtable/config.toml" in \
        (tmp_path / "etc/systemd/system/cardtable.service").read_text()
    said = capsys.readouterr().out
    assert all(f"written: {tmp_path / target}" in said for target in WRITTEN)
    assert f"systemd-sysusers --root={tmp_path}" in said

    assert install(tmp_path) == 0  # again: nothing to do
    said = capsys.readouterr().out
    assert all(f"unchanged: {tmp_path / target}" in said for target in WRITTEN)


@needs_analyze
def test_systemd_analyze_verify_finds_nothing_in_the_written_unit(tmp_path: Path) -> None:
    assert install(tmp_path) == 0
    run = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "etc/systemd/system/cardtable.service")],
                         capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr) == (0, "")  # verify exits 0 even for misspelled keys: stderr tells


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers missing")
def test_the_written_user_file_makes_the_user_under_the_root(tmp_path: Path) -> None:
    assert install(tmp_path) == 0
    run = subprocess.run(["systemd-sysusers", f"--root={tmp_path}"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in
              (tmp_path / "etc/group").read_text().splitlines()}
    assert all("cardtable" in groups[name] for name in ("gpio", "video", "dialout"))


def test_a_file_that_is_not_cardtables_is_refused_whole_unless_forced(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    rule = tmp_path / "etc/udev/rules.d/99-cardtable-pegboard.rules"
    rule.parent.mkdir(parents=True)
    rule.write_text('SUBSYSTEM=="tty", SYMLINK+="something-else"\n')
    assert install(tmp_path) == 2
    assert f"{rule}: exists and is not cardtable's (--force replaces it)" in capsys.readouterr().err
    assert not (tmp_path / "etc/systemd").exists(), "nothing written when one file is refused"
    assert install(tmp_path, "--force") == 0
    assert rule.read_text() == (SYSTEMD / "99-cardtable-pegboard.rules").read_text()


def test_an_earlier_version_of_our_unit_is_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unit = tmp_path / "etc/systemd/system/cardtable.service"
    unit.parent.mkdir(parents=True)
    shipped = (SYSTEMD / "cardtable.service").read_text()
    unit.write_text(shipped.replace("WatchdogSec=10", "WatchdogSec=30"))
    assert install(tmp_path) == 0
    assert f"replaced: {unit}" in capsys.readouterr().out and "WatchdogSec=10" in unit.read_text()


def test_a_root_that_is_no_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert install(tmp_path / "missing") == 2
    assert f"--root {tmp_path / 'missing'}: no such folder" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root to run the command as another user (setpriv)")
def test_the_system_root_is_refused_to_a_user_who_is_not_root(tmp_path: Path) -> None:
    run = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                          sys.executable, "-m", "controller.cli", "install-service"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": str(tmp_path)})
    assert run.returncode == 2, run.stderr
    assert "writing /etc needs root: run it with sudo" in run.stderr and run.stdout == ""


def test_the_package_ships_the_repository_systemd_files_through_its_link() -> None:
    """The unit, user and udev rule live in the repository's systemd/; the package reads them through
    controller/install/systemd, a link, so there is one copy to edit."""
    root = Path(__file__).parents[1]
    for name in ("cardtable.service", "cardtable.sysusers", "99-cardtable-pegboard.rules"):
        shipped = resources.files("controller.install").joinpath("systemd", name).read_text(encoding="utf-8")
        assert shipped == (root / "systemd" / name).read_text(encoding="utf-8")
