"""The command line's one error boundary (controller/cli.py) and the files it must never lose (issue 28)."""
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import cli
from controller.commands import firmware
from controller.pegboard.virtual import LinkPathError, VirtualPegBoard

HISTORIES = Path(__file__).parent / "data" / "histories"


def cardtable(*argv: str, **kw) -> subprocess.CompletedProcess[str]:
    kw.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], text=True, timeout=60, **kw)


def test_an_unexpected_error_is_one_line_naming_the_log(monkeypatch, capsys, tmp_path):
    log = tmp_path / "errors.log"
    monkeypatch.setenv(cli.LOG_ENV, str(log))
    monkeypatch.setattr("controller.commands.ferbli.evaluate", lambda cards: {}["boom"])
    assert cli.main(["ferbli", "rank", "AS", "KS", "QS", "AH"]) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("cardtable ferbli rank: internal error (KeyError: 'boom')") and str(log) in err
    assert "Traceback" in log.read_text() and "ferbli/hands" not in err


def test_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setattr("controller.commands.ferbli.evaluate", lambda cards: {}["boom"])
    for argv in (["--debug", "ferbli", "rank", "AS"], ["ferbli", "rank", "AS", "--debug"]):
        with pytest.raises(KeyError):
            cli.main(argv)


def test_bad_input_is_one_line_exit_2_naming_the_command(capsys):
    assert cli.main(["ferbli", "rank", "AS", "KX", "QS", "AH"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardtable ferbli rank: ") and "'KX'" in err


def test_a_reader_that_goes_away_ends_the_replay_quietly(tmp_path):
    long = tmp_path / "long.jsonl"
    lines = (HISTORIES / "cribbage" / "two_player_skunk.jsonl").read_text().splitlines()
    long.write_text("\n".join(lines + [line for _ in range(300) for line in lines[1:]]) + "\n")
    done = subprocess.run(f"{sys.executable} -m controller.cli replay {long} | head -1", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.count("\n") == 1 and done.stderr == ""


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv", [["stats", "cribbage"], ["advise", "5H", "5S", "JD", "QC", "4H", "6D", "--dealer"],
                                  ["ferbli", "rank", "AS", "KS", "QS", "AH"]])
def test_a_closed_pipe_ends_any_command_quietly(monkeypatch, capsys, argv):
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert cli.main(argv) == 0
    assert capsys.readouterr().err == ""


def test_a_full_disk_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        done = cardtable("replay", str(HISTORIES / "cribbage" / "two_player_skunk.jsonl"), stdout=full,
                         stderr=subprocess.PIPE, capture_output=False)
    assert done.returncode == 2
    assert done.stderr == "cardtable replay: error: cannot use standard output: No space left on device\n"


def test_simulate_refuses_to_replace_a_file(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    (tmp_path / "notes.txt.new").write_text("more notes")
    assert cli.main(["firmware", "simulate", "--link", str(notes)]) == 2
    assert "a file is there" in capsys.readouterr().err
    assert notes.read_text() == "my notes" and (tmp_path / "notes.txt.new").read_text() == "more notes"
    with pytest.raises(LinkPathError, match="a file is there"):
        VirtualPegBoard(link_path=notes).start()
    assert notes.read_text() == "my notes" and not notes.is_symlink()


@pytest.mark.parametrize("make,fragment", [
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: p.symlink_to(p.parent / "elsewhere.txt"), "not to a terminal"),
    (lambda p: None, "does not exist"),
])
def test_simulate_refuses_other_link_paths(tmp_path, capsys, make, fragment):
    link = tmp_path / "link"
    make(link)
    target = link / "x" if fragment == "does not exist" else link
    assert cli.main(["firmware", "simulate", "--link", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err and str(target) in err


def test_simulate_replaces_a_stale_link_and_removes_only_its_own(tmp_path):
    link = tmp_path / "pegboard"
    link.symlink_to("/dev/pts/999")  # left by a board that was killed
    (tmp_path / "pegboard.new").write_text("not ours")
    with VirtualPegBoard(link_path=link) as board:
        assert os.readlink(link) != "/dev/pts/999" and board.running
    assert not link.exists() and not link.is_symlink()
    assert (tmp_path / "pegboard.new").read_text() == "not ours"
    assert [p.name for p in tmp_path.iterdir()] == ["pegboard.new"]


def test_simulate_on_a_good_path_runs_until_terminated(tmp_path):
    link = tmp_path / "pegboard"
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "firmware", "simulate", "--link", str(link)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert "virtual peg board on" in proc.stdout.readline() and link.is_symlink()
    proc.terminate()
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and err == "" and not link.is_symlink()


def test_flash_errors_are_firmware_errors(tmp_path, capsys):
    assert issubclass(firmware.FirmwareError, ValueError)  # so the boundary reports them as bad input
    assert cli.main(["firmware", "flash", "--port", str(tmp_path / "ttyACM9")]) == 2
    assert capsys.readouterr().err.startswith("cardtable firmware flash: error: cannot open")


def test_interrupt_is_one_line(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "firmware", "simulate", "--link",
                             str(tmp_path / "pb")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    try:
        proc.stdout.readline()
        proc.send_signal(2)
        deadline = time.monotonic() + 20
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        _, err = proc.communicate(timeout=5)
    finally:
        proc.kill()  # never leave a simulated board running behind a failed or interrupted test
    assert "Traceback" not in err and not (tmp_path / "pb").is_symlink()


def test_each_module_registers_the_commands_it_is_listed_with():
    import argparse
    import importlib
    for module, names in cli.COMMAND_MODULES.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        assert tuple(sub.choices) == names, module


def test_replay_imports_no_vision_library(tmp_path):
    # OpenCV, numpy and ONNX Runtime were imported for every command: 60 MB before a replay read a line
    probe = ("import sys; from controller import cli; code = cli.main(['replay', sys.argv[1]]); "
             "print(sorted(m for m in ('cv2', 'numpy', 'onnxruntime') if m in sys.modules), code)")
    done = subprocess.run([sys.executable, "-c", probe, str(HISTORIES / "cribbage" / "muggins.jsonl")],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "[] 0", done.stderr


@pytest.mark.parametrize("argv,fragment", [
    (["--speed", "-1"], "argument --speed: must be a number at least 0 and at most 100, got '-1'"),
    (["--speed", "nan"], "argument --speed: must be a number at least 0"),
    (["--games", "0"], "argument --games: at least 1, not 0"),
    (["--pin", "12"], "argument --pin: the PIN must have 4 to 12 digits, not 2"),
    (["--history", "{folder}"], "--history {folder}: is a folder"),
    (["--history", "{folder}/missing/h.jsonl"], "folder {folder}/missing does not exist"),
    (["--history", "{notes}"], "--history {notes}: exists and was not written by cardtable; pass --force"),
])
def test_demo_arguments_are_refused_before_the_game(tmp_path, capsys, monkeypatch, argv, fragment):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    monkeypatch.setattr("controller.commands.demo.run_demo", lambda *a: pytest.fail("the game was played"))
    argv = [a.format(folder=tmp_path, notes=notes) for a in argv]
    try:
        code = cli.main(["demo", *argv])
    except SystemExit as exit:
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and fragment.format(folder=tmp_path, notes=notes) in err, err
    assert notes.read_text() == "mine"


def test_demo_may_replace_a_history_it_wrote(tmp_path, monkeypatch):
    history = tmp_path / "h.jsonl"
    history.write_text('{"format": "cardtable-history/1", "game": "cribbage"}\n')
    played = []
    monkeypatch.setattr("controller.commands.demo.run_demo", lambda *a: played.append(a) or 0)
    assert cli.main(["demo", "--history", str(history)]) == 0 and played[0][0].history == history
