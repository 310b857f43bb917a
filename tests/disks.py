"""Small real disks for the tests of full and read-only state: a tmpfs mounted in the test's folder."""
from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` ("160k", "16m") at FOLDER/disk; the test is skipped where mounting is not allowed
    (it needs root)."""
    mount = folder / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def remount(mount: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mount)], check=True)


def fill(mount: Path) -> Path:
    """Takes every free block of the disk with a ballast file."""
    ballast = mount / "ballast"
    with open(ballast, "wb", buffering=0) as stream:
        try:
            while True:
                stream.write(b"\0" * 4096)
        except OSError:
            pass
    return ballast
