"""Installing the table service on a Raspberry Pi: the files systemd and udev need, from the package's
data (`controller/install/systemd`, a link to the repository's `systemd/`: the unit, the service's user,
the peg board's udev rule), written under a root
folder (`/` on the Pi; a temporary folder in the tests), and the steps left for the system's own tools.

The unit runs the `cardtable` it was installed from: its `ExecStart` names that executable (the one
beside the running interpreter, normally /opt/cardtable/venv/bin/cardtable), so a venv elsewhere works.
A file already there is replaced only when it is one of ours (its first line is our file's first line:
an earlier version of it) or with `force`; one the same as ours is left alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..output_files import OutputError, write_text_atomically

UNIT_EXEC = "/opt/cardtable/venv/bin/cardtable"  # the unit's ExecStart as shipped (README's venv)
CONFIG = Path("etc/cardtable/config.toml")


@dataclass(frozen=True)
class InstallFile:
    source: str  # in the package's systemd/
    target: Path  # relative to the root

    def text(self, executable: str) -> str:
        shipped = resources.files(__package__).joinpath("systemd", self.source).read_text(encoding="utf-8")
        return shipped.replace(UNIT_EXEC, executable)


FILES = (InstallFile("cardtable.service", Path("etc/systemd/system/cardtable.service")),
         InstallFile("cardtable.sysusers", Path("etc/sysusers.d/cardtable.conf")),
         InstallFile("99-cardtable-pegboard.rules", Path("etc/udev/rules.d/99-cardtable-pegboard.rules")))


@dataclass(frozen=True)
class Written:
    path: Path
    action: str  # "written", "replaced", "unchanged"


def install_files(root: Path, executable: str, *, force: bool = False) -> list[Written]:
    """Write every file under `root`; an OutputError naming the file (before anything is written) when one
    there is not ours and `force` is not set."""
    plan = [(root / f.target, f.text(executable)) for f in FILES]
    for path, text in plan:
        if path.is_dir():
            raise OutputError(f"{path}: is a folder, not the file to install")
        if path.exists() and not force and not _ours(path, text):
            raise OutputError(f"{path}: exists and is not cardtable's (--force replaces it)")
    written = []
    for path, text in plan:
        if path.exists() and path.read_text(encoding="utf-8", errors="replace") == text:
            written.append(Written(path, "unchanged"))
            continue
        action = "replaced" if path.exists() else "written"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(path, text, new_mode=0o644)
        written.append(Written(path, action))
    return written


def _ours(path: Path, text: str) -> bool:
    try:
        with path.open(encoding="utf-8", errors="replace") as existing:
            return existing.readline() == text.splitlines(keepends=True)[0]
    except OSError:
        return False


def remaining_steps(root: Path, executable: str) -> list[str]:
    """The commands that make the files take effect, in order (the config's only when it is missing)."""
    if root != Path("/"):  # an image being prepared: the user now, the rest once the Pi boots from it
        return [f"systemd-sysusers --root={root}", "then, on the Pi: udevadm trigger --subsystem-match=tty; "
                f"{executable} config init; systemctl enable --now cardtable"]
    steps = ["systemd-sysusers", "udevadm control --reload && udevadm trigger --subsystem-match=tty"]
    if not (root / CONFIG).exists():
        steps.append(f"{executable} config init && {executable} console-pin   "
                     "# then calibrate the camera: README 'Installing on a Raspberry Pi', step 5")
    steps += [f"{executable} config check", "systemctl daemon-reload && systemctl enable --now cardtable"]
    return steps
