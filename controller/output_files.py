"""Files the command line writes: checked before any work starts, written atomically.

Every output goes through `check_output` first (so a bad path is refused before a game is played or a
camera is opened) and is then written by `write_atomically`: into a temporary file in the same folder,
flushed to disk, and renamed over the target, so a crash, a full disk or Ctrl-C leaves either the old
file or the whole new one, never half of either. An output never replaces one of the command's inputs,
and replaces an existing file only when it is one the tool made (`ours`) or the user passed `--force`.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO


class OutputError(ValueError):
    """An output path the command refuses to write, with the reason and what to do."""


def check_output(path: str | Path, *, option: str, inputs: Iterable[str | Path] = (), force: bool = False,
                 ours: Callable[[Path], bool] | None = None) -> Path:
    """`path` as a Path if the command may write it; an OutputError naming `option` otherwise.

    Refused: a folder, a folder that does not exist, one of `inputs`, and an existing file unless
    `ours(path)` says the tool made it or `force` is set."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{option} {target}: is a folder; name a file in it")
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{option} {target}: folder {folder} does not exist")
    if not target.exists():
        return target
    for source in inputs:
        if Path(source).exists() and os.path.samefile(source, target):
            raise OutputError(f"{option} {target}: is an input of this command; write elsewhere")
    if not target.is_file():
        raise OutputError(f"{option} {target}: exists and is not a regular file")
    if not force and not (ours is not None and ours(target)):
        raise OutputError(f"{option} {target}: exists and was not written by cardtable; "
                          f"pass --force to replace it")
    return target


def write_atomically(path: Path, write: Callable[[BinaryIO], object], new_mode: int | None = None,
                     replace: bool = True) -> None:
    """Run `write` on a temporary file next to `path`, then rename it over `path` (atomic on POSIX).
    The file keeps the permissions of the one it replaces; a new one gets `new_mode`, or the umask's.
    With `replace` false, a file at `path` (even one that appeared meanwhile) is a FileExistsError."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        os.fchmod(fd, _mode_for(path, new_mode))  # mkstemp makes it private; the output gets the usual mode
        with os.fdopen(fd, "wb") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)  # unlike a rename, fails if the name is taken
    finally:
        Path(temporary).unlink(missing_ok=True)


def _mode_for(path: Path, new_mode: int | None) -> int:
    """The replaced file's permissions, or a new file's (`new_mode`, or as open() would give it)."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        if new_mode is not None:
            return new_mode
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text_atomically(path: Path, text: str, new_mode: int | None = None) -> None:
    write_atomically(path, lambda stream: stream.write(text.encode("utf-8")), new_mode)


def starts_with(prefix: bytes) -> Callable[[Path], bool]:
    """An `ours` check: the file begins with `prefix` (a format marker the tool writes first)."""
    def check(path: Path) -> bool:
        with open(path, "rb") as stream:
            return stream.read(len(prefix)) == prefix
    return check
