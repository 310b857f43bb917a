"""`cardtable session`: table logs read within the JSON Lines limits, and --history checked before the log
is judged (issue 28's bar for what the table session adds)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.table.log import TableLogError, read_table_log

SAMPLE = Path(__file__).parent / "data" / "table-logs" / "ferbli-closed.jsonl"


def write(tmp_path: Path, extra: bytes, name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(SAMPLE.read_bytes().splitlines(keepends=True)[0] + extra)
    return path


@pytest.mark.parametrize("extra,fragment", [
    (b'{"t": 0.1, "type": "console", "event": {"type": "mus", "seat": 1, "amount": ' + b"9" * 5000 + b"}}\n",
     "line 2: integer 999999999999...(5000 digits) is too large"),
    (b'{"t": 0.1, "type": "x", "n": ' + b"[" * 1000 + b"]" * 1000 + b"}\n", "line 2: arrays and objects nested"),
    (b'{"t": 0.1, "type": "console", "note": "caf\xe9"}\n', "line 2: not UTF-8: byte 0xe9 at column 43"),
    (b'{"t": NaN, "type": "button"}\n', "line 2: NaN is not a JSON number"),
])
def test_a_bad_line_is_named(tmp_path, extra, fragment):
    with pytest.raises(TableLogError, match="line 2: ") as refused:
        read_table_log(write(tmp_path, extra))
    assert fragment in str(refused.value)


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + SAMPLE.read_bytes())
    header, lines = read_table_log(path)
    assert header.header.game == "ferbli" and lines == read_table_log(SAMPLE)[1]


def test_a_log_without_end_is_refused_at_the_line_limit():
    done = subprocess.run([sys.executable, "-m", "controller.cli", "session", "/dev/zero"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "line 1: longer than 1,048,576 bytes" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("target,fragment", [
    ("{tmp}", "is a folder"),
    ("{tmp}/missing/h.jsonl", "does not exist"),
    ("{tmp}/notes.txt", "pass --force"),
    ("{log}", "is an input of this command"),
])
def test_history_out_is_checked_before_the_log_is_judged(tmp_path, capsys, target, fragment):
    log = tmp_path / "log.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    (tmp_path / "notes.txt").write_text("mine")
    out = target.format(tmp=tmp_path, log=log)
    assert main(["session", str(log), "--history", out]) == 2
    stdout, err = capsys.readouterr()
    assert stdout == "" and err.count("\n") == 1 and fragment in err  # nothing judged, nothing printed
    assert (tmp_path / "notes.txt").read_text() == "mine" and log.read_bytes() == SAMPLE.read_bytes()


def test_history_out_replaces_a_history_and_with_force_anything(tmp_path, capsys):
    out = tmp_path / "h.jsonl"
    assert main(["session", str(SAMPLE), "--history", str(out)]) == 0
    first = out.read_text()
    assert main(["session", str(SAMPLE), "--history", str(out)]) == 0 and out.read_text() == first
    out.write_text("notes")
    assert main(["session", str(SAMPLE), "--history", str(out), "--force"]) == 0
    assert out.read_text() == first and json.loads(first.splitlines()[0])["game"] == "ferbli"
    capsys.readouterr()
