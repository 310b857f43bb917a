"""Reading a `path,rank,suit` CSV manifest (vision eval, vision enroll), each bad row named by its line.

A spreadsheet's byte-order mark is accepted; a short row, an unclosed quote or an overlong field is an
error naming the line, not a crash.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from _csv import Reader

COLUMNS = ("path", "rank", "suit")
MAX_MANIFEST_BYTES = 64 << 20  # ~1 M rows; a larger file is not a manifest


class ManifestRow(NamedTuple):
    line: int  # where the row starts in the file (1 = the column names)
    path: str
    rank: str
    suit: str


def manifest_rows(manifest: Path) -> list[ManifestRow]:
    """Every row of `manifest`, stripped; a ValueError naming the file and line for anything malformed."""
    try:
        if manifest.stat().st_size > MAX_MANIFEST_BYTES:
            raise ValueError(f"{manifest}: larger than {MAX_MANIFEST_BYTES:,} bytes: not a manifest")
        with open(manifest, newline="", encoding="utf-8-sig") as stream:
            return _rows(manifest, csv.reader(stream, strict=True))
    except OSError as exc:
        raise ValueError(f"cannot read manifest {manifest}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{manifest}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); save it as "
                         f"UTF-8 CSV") from None


def _rows(manifest: Path, reader: Reader) -> list[ManifestRow]:
    rows: list[ManifestRow] = []
    line = 1
    try:
        header = [name.strip().lower() for name in next(reader, [])]
        if not set(COLUMNS) <= set(header):
            raise ValueError(f"{manifest}: manifest needs the columns {','.join(COLUMNS)}, got {','.join(header)!r}")
        where = [header.index(name) for name in COLUMNS]
        line = reader.line_num + 1  # where the next row starts (a quoted field may span lines)
        for fields in reader:
            if fields and any(f.strip() for f in fields):
                if len(fields) < len(header):
                    raise ValueError(f"{manifest}: line {line}: {len(fields)} field(s), the columns are "
                                     f"{','.join(header)}")
                rows.append(ManifestRow(line, *(fields[i].strip() for i in where)))
            line = reader.line_num + 1
    except csv.Error as exc:  # an unclosed quote, a field over csv's size limit
        raise ValueError(f"{manifest}: line {line}: {exc}") from None
    return rows
