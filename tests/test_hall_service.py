"""`cardtable hall` as the club runs it: its config refused by key, the process against a real Mosquitto
(serves the board, stops cleanly on SIGTERM), and its systemd unit checked by systemd's own tools."""
from __future__ import annotations

import http.client
import json
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from club_broker import HALL_PASSWORD, Broker, Spy, free_port, password, wait_until
from controller.cli import build_parser, main
from test_systemd_unit import needs_analyze, settings, verifiable_copy
from web_panel.hall.config import EXAMPLE, HallConfig, load_hall_config

UNIT = Path(__file__).parents[1] / "deploy" / "systemd" / "cardtable-hall.service"
ROOT = Path(__file__).parents[1]


def test_the_example_config_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "hall.toml").write_text(EXAMPLE.replace("/etc/cardtable/hall-broker-password", "secret"))
    (tmp_path / "secret").write_text("pw\n")
    config = load_hall_config(tmp_path / "hall.toml")
    assert isinstance(config, HallConfig) and (config.club, config.web.port) == ("riverside", 8080)
    assert (config.broker.username, config.broker.secret()) == ("hall", "pw")


@pytest.mark.parametrize("text, words", [
    ('club = "a b"\n', "club: 1..64 letters"),
    ('club = "c"\n[broker]\nport = 0\n', "broker.port: must be 1..65535"),
    ('club = "c"\n[broker]\nhost = ""\n', "broker.host: the hall needs the club's broker"),
    ('club = "c"\n[web]\nport = "80"\n', "web.port: expected a whole number"),
    ('club = "c"\ntables = 3\n', "tables: unknown setting or section"),
])
def test_a_bad_hall_config_is_refused_naming_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str, words: str) -> None:
    (tmp_path / "hall.toml").write_text(text)
    assert main(["hall", "--config", str(tmp_path / "hall.toml")]) == 2
    assert words in capsys.readouterr().err


def test_the_hall_process_serves_the_board_and_stops_on_sigterm(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", [])
    broker.start()
    web = free_port()
    (tmp_path / "secret").write_text(HALL_PASSWORD + "\n")
    (tmp_path / "hall.toml").write_text(
        f'club = "riverside"\n[broker]\nhost = "127.0.0.1"\nport = {broker.port}\npassword_file = "secret"\n'
        f'[web]\nhost = "127.0.0.1"\nport = {web}\n')
    hall = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--config", str(tmp_path / "hall.toml")],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", web, timeout=2)
                connection.request("GET", "/api/board")
                document = json.loads(connection.getresponse().read())
                break
            except OSError:
                assert time.monotonic() < deadline and hall.poll() is None, "the hall never served its board"
                time.sleep(0.1)
        assert (document["club"], document["tables"], document["games"]) == ("riverside", [], [])
        assert (tmp_path / "hall.sqlite3").exists(), "the database, relative to the config's folder"
        hall.send_signal(signal.SIGTERM)
        assert hall.wait(15) == 0
        assert hall.stderr is not None and "follows cardtable/riverside/#" in hall.stderr.read()
    finally:
        hall.kill()
        broker.stop()


def test_the_unit_starts_a_command_the_cli_has() -> None:
    unit = settings(UNIT)
    args = build_parser().parse_args(shlex.split(unit["ExecStart"][0])[1:])
    assert (args.command, args.config) == ("hall", Path("/etc/cardtable/hall.toml"))
    assert unit["User"] == ["cardtable"] and unit["StateDirectory"] == ["cardtable-hall"]


@needs_analyze
def test_systemd_analyze_verify_finds_nothing_in_the_hall_unit(tmp_path: Path) -> None:
    run = subprocess.run(["systemd-analyze", "verify", str(verifiable_copy(tmp_path, UNIT))],
                         capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr) == (0, "")


@needs_analyze
def test_the_hall_units_exposure_is_at_most_2(tmp_path: Path) -> None:
    run = subprocess.run(["systemd-analyze", "security", "--offline=true", str(verifiable_copy(tmp_path, UNIT))],
                         capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for cardtable-hall\.service: (\d+\.\d+)", run.stdout)
    assert score is not None, run.stdout[-500:] + run.stderr
    assert float(score[1]) <= 2.0


def test_cardtable_run_with_a_club_section_publishes_the_table(tmp_path: Path) -> None:
    """The [club] hook of `cardtable run`: the real service (synthetic camera, mock pins) goes online on
    the broker with its state, and says offline at SIGTERM."""
    from test_service_process import Child, write_config

    broker = Broker(tmp_path / "broker", ["table-9"])
    broker.start()
    spy = Spy(broker)
    club = (f'[club]\nhost = "127.0.0.1"\nport = {broker.port}\nclub = "riverside"\ntable = "table-9"\n'
            f'password = "{password("table-9")}"\n')
    child = Child(tmp_path, write_config(tmp_path, None, extra=club))
    try:
        child.expect("READY=1", 120)
        wait_until(lambda: spy.on("cardtable/riverside/table-9/state"), timeout=30, what="the table's state")
        states = spy.on("cardtable/riverside/table-9/state")
        assert all(state["table"]["game"] == "cribbage" for state in states), "never the hub before its first"
        assert states[-1]["dropped_events"] == 0
        code, err = child.finish(signal.SIGTERM)
        assert code == 0, err[-2000:]
        status = [m.payload for m in spy.messages if m.topic == "cardtable/riverside/table-9/status"]
        assert status == [b"online", b"offline"]
        assert (tmp_path / "state" / "club-outbox.sqlite3").exists()
    finally:
        if child.process.poll() is None:
            child.finish(signal.SIGKILL)
        spy.close()
        broker.stop()
