"""The service loop in-process: a whole game through the inbox, the journal, the real firmware behind a
pty and the hub; then the faults, each injected for real (a camera that vanishes, the pty closed under
the link, a read-only and a full state directory)."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from disks import fill, remount, small_tmpfs

from controller.hardware.status_light import LightStatus
from controller.history import HistoryLine
from controller.journal import JOURNAL_NAME, Journal
from controller.pegboard import pegproto
from controller.pegboard.virtual import VirtualPegBoard
from controller.replay import replay
from controller.service.camera import CameraStatuses
from controller.service.config import CameraConfig, GameConfig, PegBoardConfig, ReaderConfig, ServiceConfig
from controller.service.lock import ServiceLockError
from controller.service.loop import Sensed, TableService
from controller.service.notify import Notifier
from controller.table.inputs import Button, CardPlaced, FaceDownCount
from controller.table.log import LogLine, read_table_log
from controller.table.outputs import board_state
from controller.table.session import replayed
from vision.observations import CameraStatus
from vision.sources import FrameSource, ImageFolderSource, ReconnectingSource
from vision.synthetic import SyntheticSceneSource
from vision.watch import SYNTHETIC_STYLE
from web_panel.ports import ConsoleAnswer, GameStart

LOGS = Path(__file__).parent / "data" / "table-logs"


@contextmanager
def running(tmp_path: Path, source: FrameSource | None = None, board: VirtualPegBoard | None = None,
            state: Path | None = None, players: tuple[str, ...] = ("P0", "P1"),
            pins: MockFactory | None = None, game: GameConfig | None = None,
            reader: FrameSource | None = None) -> Iterator[TableService]:
    """The service on its own thread, as `cardtable run` runs it, on mock pins (and the virtual board; and
    the deal reader, when one is given)."""
    empty = tmp_path / "no-frames"
    empty.mkdir(exist_ok=True)
    config = ServiceConfig(
        state_directory=state or tmp_path / "state", camera=CameraConfig(source="synthetic", fps=15),
        pegboard=PegBoardConfig(enabled=board is not None, port=board.port_path if board else ""),
        game=game or GameConfig(players=players),
        reader=ReaderConfig(source=None if reader is None else "the test's deal reader"))
    service = TableService(config, notifier=Notifier(None), source=source or ImageFolderSource(empty),
                           reader_source=reader, pin_factory=pins or MockFactory(pin_class=MockPWMPin), buzzer_tempo=20.0)
    thread = threading.Thread(target=service.run, name="service")
    thread.start()
    try:
        assert service.hub.wait_for(0, timeout=30) is not None, "the service did not start"
        yield service
    finally:
        service.stop()
        thread.join(20)
        assert not thread.is_alive()


def feed(service: TableService, lines: list[LogLine]) -> None:
    for line in lines:
        service.inbox.put(Sensed(line.t, line.input))
    assert wait_until(lambda: service.inbox.unfinished_tasks == 0, 120), "the service stopped taking inputs"


def wait_until(predicate: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())


def test_a_whole_game_ends_alike_in_the_journal_on_the_board_and_in_the_hub(tmp_path: Path) -> None:
    header, lines = read_table_log(LOGS / "cribbage-closed.jsonl")
    pins = MockFactory(pin_class=MockPWMPin)
    with VirtualPegBoard({"tracks": 2, "holes": 121}, link_path=tmp_path / "pegboard") as board:
        with running(tmp_path, board=board, pins=pins) as service:
            feed(service, lines)
            engine = service.session.engine
            final = board_state(engine)  # type: ignore[arg-type]
            assert service.devices is not None and service.devices.link is not None
            assert service.devices.link.wait_confirmed(final, 10)
            assert board.app.link.state == pegproto.decode_state(final.encode())  # the win, animated
            snapshot = service.hub.snapshot()
            summary = engine.summary()
            assert pins.pin(27).state == 1  # the status light green: the game is over, nothing held
    assert [pins.pin(pin).state for pin in (17, 27, 22)] == [0, 0, 0]  # stopped: the light is off
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        (game,) = journal.games()
        assert [line["t"] for line in journal.inputs(game.id)] == [line.t for line in lines]
        events = journal.events(game.id)
    results = list(replay(header.header, [HistoryLine(n, e) for n, e in enumerate(events, start=2)]))
    assert all(r["ok"] for r in results[:-1]) and results[-1] == {"type": "summary", "game": "cribbage", **summary}
    table, again = snapshot.public_document()["table"], replayed(header.header, events).public_view()
    assert {key: table[key] for key in again} == again and table["winner"] == 0  # the hub shows the replay's game


@pytest.mark.parametrize("log", ["femkort-closed.jsonl", "ferbli-closed.jsonl"])
def test_a_whole_game_of_chips_ends_in_the_hub_as_its_journal_replays(tmp_path: Path, log: str) -> None:
    header, lines = read_table_log(LOGS / log)
    setup = header.header
    game = GameConfig(setup.game, setup.players, setup.dealer, "closed", dict(setup.options), setup.chips)
    with running(tmp_path, game=game) as service:
        feed(service, lines)
        table = service.hub.snapshot().public_document()["table"]
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        (record,) = journal.games()
        events = journal.events(record.id)
    again = replayed(setup, events).public_view()
    assert {key: table[key] for key in again} == again and table["players"] == list(setup.players)
    assert table["game_over"] and table["winner"] is not None


def test_the_journal_takes_the_game_up_again_after_a_restart(tmp_path: Path) -> None:
    _, lines = read_table_log(LOGS / "cribbage-closed.jsonl")
    half = len(lines) // 2
    with running(tmp_path) as service:
        feed(service, lines[:half])
        midway = service.session.engine.summary()
    with running(tmp_path) as service:
        assert service.session.engine.summary() == midway and service.table.game_id == 1
        feed(service, lines[half:])
        assert service.session.engine.summary()["winner"] == 0


class PluggableCamera:
    """A camera device behind the real ReconnectingSource: unplugged, it fails to read and to open."""

    def __init__(self) -> None:
        self.plugged = threading.Event()
        self.plugged.set()
        self.scene = SyntheticSceneSource([[]], SYNTHETIC_STYLE, hold=10**9)

    def open(self) -> PluggableCamera:
        if not self.plugged.is_set():
            raise OSError("no such device")
        return self

    def read(self) -> tuple[bool, np.ndarray | None]:
        frame = self.scene.read() if self.plugged.is_set() else None
        return (frame is not None, None if frame is None else frame.image)

    def release(self) -> None:
        pass


def test_a_camera_that_vanishes_holds_the_table_and_says_so_then_resumes(tmp_path: Path) -> None:
    camera = PluggableCamera()
    source = ReconnectingSource(camera.open, retry_s=0.05, max_retry_s=0.1)
    with running(tmp_path, source=source) as service:
        assert wait_until(lambda: service.hub.snapshot().status.camera == "online")
        camera.plugged.clear()
        assert wait_until(lambda: service.hub.snapshot().status.camera == "offline")
        service.submit(Button("next", None))  # the dealer deals while the camera is away
        assert wait_until(lambda: service.inbox.unfinished_tasks == 0)
        held = service.hub.snapshot()
        assert held.status.hold is not None and held.status.hold["reason"] == "camera"
        assert service.devices is not None and service.devices.light.status is LightStatus.OFFLINE
        assert service.session.history == []  # nothing judged while the table cannot see
        camera.plugged.set()
        assert wait_until(lambda: service.hub.snapshot().status.camera == "online")
        assert wait_until(lambda: service.inbox.unfinished_tasks == 0)
        resumed = service.hub.snapshot()
        assert resumed.status.hold is None and service.devices.light.status is not LightStatus.OFFLINE
        assert [event["type"] for event in service.session.history] == ["deal"]  # the deal, judged now


def test_the_pty_closed_under_the_link_gets_the_whole_board_state_again(tmp_path: Path) -> None:
    _, lines = read_table_log(LOGS / "cribbage-closed.jsonl")
    board = VirtualPegBoard({"tracks": 2, "holes": 121}, link_path=tmp_path / "pegboard")
    board.start()
    try:
        with running(tmp_path, board=board) as service:
            feed(service, lines[:60])
            state = board_state(service.session.engine)  # type: ignore[arg-type]
            assert board.wait_for_leds(board.render(state), 10)
            board.stop()  # unplugged: the pty vanishes under the link
            assert wait_until(lambda: service.hub.snapshot().status.pegboard == "down")
            assert service.devices is not None and service.devices.light.status is LightStatus.OFFLINE
            board.start()  # plugged in again: freshly booted firmware, nothing shown
            assert board.wait_for_leds(board.render(state), 15)
            assert wait_until(lambda: service.hub.snapshot().status.pegboard == "up")
            assert service.devices.light.status is not LightStatus.OFFLINE
    finally:
        board.stop()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs for the state directory (the journal's WAL grows to a few MiB between checkpoints)."""
    with small_tmpfs(tmp_path, "16m") as mount:
        yield mount


def test_a_full_disk_stops_play_says_so_and_loses_nothing(tmp_path: Path, small_disk: Path) -> None:
    _, lines = read_table_log(LOGS / "cribbage-closed.jsonl")
    with running(tmp_path, state=small_disk / "state") as service:
        feed(service, lines[:40])
        ballast = fill(small_disk)
        feed(service, lines[40:60])
        faulted = service.hub.snapshot()
        assert faulted.status.fault is not None and "journal cannot be written" in faulted.status.fault
        assert service.devices is not None and service.devices.light.status is LightStatus.ILLEGAL
        judged_while_full = len(service.session.history)
        ballast.unlink()
        assert wait_until(lambda: service.hub.snapshot().status.fault is None)  # retried on the loop's tick
        assert len(service.session.history) > judged_while_full
        feed(service, lines[60:])
        summary = service.session.engine.summary()
    with Journal.open(small_disk / "state" / JOURNAL_NAME, readonly=True) as journal:
        assert [line["t"] for line in journal.inputs(1)] == [line.t for line in lines]  # every input, in order
        assert summary["winner"] == 0 and len(journal.events(1)) == len(service.session.history)


def test_a_read_only_state_directory_is_refused_before_anything_starts(tmp_path: Path, small_disk: Path) -> None:
    (small_disk / "state").mkdir()
    remount(small_disk, "ro")
    service = TableService(ServiceConfig(state_directory=small_disk / "state", camera=CameraConfig(source="synthetic"),
                                         pegboard=PegBoardConfig(enabled=False)),
                           notifier=Notifier(None), pin_factory=MockFactory(pin_class=MockPWMPin))
    with pytest.raises(ServiceLockError, match="cannot write the state directory .*Read-only file system"):
        service.run()
    assert service.devices is None and service.hub.snapshot().version == 0


def test_a_table_with_a_deal_reader_deals_open_and_a_lost_reader_holds_it(tmp_path: Path) -> None:
    table, reader = PluggableCamera(), PluggableCamera()
    with running(tmp_path, source=table.scene, reader=ReconnectingSource(reader.open, retry_s=0.05,
                                                                         max_retry_s=0.1)) as service:
        assert wait_until(lambda: service.hub.snapshot().status.camera == "online")
        started = service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy"), dealer=1, deal="open"))
        assert started == ConsoleAnswer(True, "game 1 ended; game 2: femkort for Ann, Bo, Cy started")
        reader.plugged.clear()
        assert wait_until(lambda: service.hub.snapshot().status.camera == "offline")
        service.submit(CardPlaced("4C", "reader"))  # dealt while the reader is away
        assert service.settled(10)
        held = service.hub.snapshot().status.hold
        assert held is not None and held["reason"] == "camera" and service.session.history == []
        reader.plugged.set()
        assert wait_until(lambda: service.hub.snapshot().status.camera == "online")
        assert service.settled(10) and service.hub.snapshot().status.hold is None
        assert service.session.history == [{"type": "deal", "seat": 2, "card": "4C"}]  # left of the dealer
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        _, game = journal.games()
        assert game.header["deal"] == "open"
        statuses = [line for line in journal.inputs(game.id) if line["type"] == "camera"]
        assert [line["status"] for line in statuses] == ["offline", "online"]
        assert statuses[0]["detail"].startswith("the deal reader")  # which camera went away


def test_the_table_sees_again_only_once_every_camera_is_back() -> None:
    heard: list[Any] = []
    statuses = CameraStatuses(lambda t, event: heard.append(event), ("camera", "deal reader"))
    table, reader = statuses.poster("camera"), statuses.poster("deal reader")
    table(0, CameraStatus("online"))  # the reader still starting: not yet online
    reader(1, CameraStatus("online"))
    table(2, CameraStatus("offline", "unplugged"))
    reader(3, CameraStatus("offline"))  # already offline: nothing new
    reader(4, CameraStatus("online"))  # the table camera is still away
    reader(5, CameraStatus("bad_frame", "truncated"))
    reader(6, CardPlaced("4C", "reader"))
    table(7, CameraStatus("online"))
    assert heard == [CameraStatus("online", "the deal reader"), CameraStatus("offline", "unplugged"),
                     CameraStatus("bad_frame", "the deal reader: truncated"), CardPlaced("4C", "reader"),
                     CameraStatus("online")]


def test_the_console_is_judged_by_the_loop_in_order_and_journaled(tmp_path: Path) -> None:
    """web_panel's ConsolePort on the real service: a hold resolved, an undo, a refusal, a new game."""
    with running(tmp_path) as service:
        for item in (Button("next", None), *(FaceDownCount("crib", n) for n in range(1, 5)),
                     CardPlaced("9D", "starter"), CardPlaced("unknown", "seat-2")):  # P1 (the pone) plays first
            service.submit(item)
        assert wait_until(lambda: service.inbox.unfinished_tasks == 0)
        assert service.hub.snapshot().status.hold == service.session.dealer_hold() is not None
        assert service.undo() == ConsoleAnswer(False, f"resolve the hold first ({service.session.hold.describe()})")
        resolved = service.resolve_hold("5C")
        assert resolved.ok and service.session.history[-1] == {"type": "play", "seat": 1, "card": "5C"}
        assert service.hub.snapshot().status.hold is None
        assert service.resolve_hold("6C") == ConsoleAnswer(False, "nothing is held")
        assert service.undo() == ConsoleAnswer(True, "the last play was undone")
        refused = service.console_event({"type": "claim", "seat": 0, "points": 4})
        assert not refused.ok and "muggins" in refused.message
        started = service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy"), dealer=1))
        assert started == ConsoleAnswer(True, "game 1 ended; game 2: femkort for Ann, Bo, Cy started")
        table = service.hub.snapshot().public_document()["table"]
        assert (table["game"], table["players"], table["dealer"]) == ("femkort", ["Ann", "Bo", "Cy"], 1)
        assert not service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy"), options={"pots": "many"})).ok
        assert service.hub.snapshot().public_document()["table"]["game"] == "femkort"  # the refusal changed nothing
    assert service.undo() == ConsoleAnswer(False, "the table service is stopping: nothing was entered")
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        first, second = journal.games()
        assert first.ended is not None and second.ended is None and second.header["game"] == "femkort"
        console = [line for line in journal.inputs(first.id) if line["type"] == "console"]
        assert [line.get("action") or line["event"]["type"] for line in console] == [
            "undo", "resolve", "resolve", "undo", "claim"]
        assert [event["type"] for event in journal.events(first.id)][-1] == "starter"  # the play undone


def test_a_console_entry_the_loop_never_takes_gets_a_clear_answer_in_time(tmp_path: Path) -> None:
    config = ServiceConfig(state_directory=tmp_path / "state", pegboard=PegBoardConfig(enabled=False))
    service = TableService(config, notifier=Notifier(None), answer_timeout=0.2)  # never run: nobody judges
    started = time.monotonic()
    assert service.relay() == ConsoleAnswer(False, "the table did not answer within 0.2 s: look at the table's "
                                                   "state before entering it again")
    assert time.monotonic() - started < 2


def test_the_console_sees_the_held_zone_as_the_camera_does(tmp_path: Path) -> None:
    source = SyntheticSceneSource([[]], SYNTHETIC_STYLE, hold=10**9)  # an empty table, filmed on and on
    with running(tmp_path, source=source) as service:
        assert wait_until(lambda: service.hub.snapshot().status.camera == "online")
        assert service.hold_crop() is None  # nothing is held
        for item in (Button("next", None), *(FaceDownCount("crib", n) for n in range(1, 5)),
                     CardPlaced("9D", "starter"), CardPlaced("unknown", "seat-2")):
            service.submit(item)
        assert service.settled(30) and service.hub.snapshot().status.hold is not None
        png = service.hold_crop()
        assert png is not None and png.startswith(b"\x89PNG")
        crop = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        zone = np.array(service.camera.watcher.tracker.zones["seat-2"])  # type: ignore[union-attr]
        width, height = zone.max(axis=0) - zone.min(axis=0)
        assert abs(crop.shape[1] - width) <= 30 and abs(crop.shape[0] - height) <= 30  # seat 2's box, not the frame
        assert crop.shape[:2] != (SYNTHETIC_STYLE.size[1], SYNTHETIC_STYLE.size[0])
