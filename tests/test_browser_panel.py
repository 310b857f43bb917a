"""The spectator page in a real headless Chromium (Debian's, driven by Playwright) at a phone's width,
served by the panel's own waitress server on loopback: documents published by hand, the real table
service's console, and the demo's simulated table playing live."""
from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.demo import DemoSettings, DemoTable
from controller.journal import JOURNAL_NAME, Journal
from controller.service.config import CameraConfig, ConsoleConfig, GameConfig, PegBoardConfig, ServiceConfig
from controller.service.hub import StateHub, TableStatus
from controller.service.loop import TableService
from controller.service.notify import Notifier
from controller.service.panel import PanelServer
from controller.service.pin import hash_pin
from panel_documents import CRIBBAGE, FEMKORT, FERBLI
from controller.table.inputs import Button, CardPlaced, FaceDownCount
from panel_support import RecordingConsole
from vision.sources import ImageFolderSource
from web_panel import create_app, make_server
from web_panel.review import hand_review
from web_panel.serving import shut_down
from web_panel.settings import PanelSettings

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="Debian's chromium is not installed")
PHONE = {"width": 360, "height": 740}
PIN = "2468"
PIN_HASH = hash_pin(PIN)


class Panel:
    """A panel served on a loopback port in a thread; `restart()` is a new service on the same port."""

    def __init__(self, port: int = 0) -> None:
        self.hub = StateHub()
        app = create_app(self.hub, RecordingConsole(), settings=PanelSettings(keepalive=0.5))
        self.server = make_server(app, "127.0.0.1", port, threads=8)
        self.port: int = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.hub.close()
        shut_down(self.server)
        self.thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()


@pytest.fixture
def panel() -> Iterator[Panel]:
    served = Panel()
    yield served
    served.stop()


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_each_game_renders_at_phone_width(panel: Panel, page: Any, tmp_path: Path) -> None:
    panel.hub.publish(CRIBBAGE, CRIBBAGE, TableStatus(camera="online", pegboard="up"))
    page.goto(panel.url)
    page.wait_for_selector("[data-game=cribbage]")
    assert page.get_attribute("[data-peg=front-1]", "data-score") == "41"
    assert page.get_attribute("[data-peg=back-0]", "data-score") == "29"
    assert page.locator("[data-line=skunk]").count() == 1 and page.locator("[data-line=double]").count() == 1
    assert "fifteen 2, fifteen 4, a pair is 6, and nobs is 7" in page.inner_text("#show")
    assert page.inner_text("#count") == "15"
    _no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "cribbage.png"), full_page=True)

    events = [{"type": "deal", "hands": [["5H", "5S", "5C", "JD", "2C", "9S"], ["AH", "2H", "3D", "KC", "QC", "8D"]]},
              {"type": "discard", "seat": 0, "cards": ["5H", "5S"]}, {"type": "discard", "seat": 1, "cards": ["KC", "QC"]},
              {"type": "starter", "card": "4H"}, {"type": "claim", "seat": 1, "points": 5}]
    over = {**CRIBBAGE, "hand_over": True, "review": hand_review(events, 2, dealer=1, muggins=True)}
    panel.hub.publish(over, over, TableStatus())
    page.wait_for_selector("#review")
    said = page.inner_text("#review")
    assert "Ann threw 5\u2665 5\u2660" in said and "of 15; best was to throw 2\u2663 9\u2660" in said
    assert "Bo: claimed 5 of 8, missed 3" in said
    _no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "cribbage-review.png"), full_page=True)

    panel.hub.publish(FEMKORT, FEMKORT, TableStatus(camera="online", hold={"reason": "unread card", "seat": 1}))
    page.wait_for_selector("[data-game=femkort]")
    assert "Cy leads" in page.inner_text("#game") and page.inner_text("#pot") == "6"
    assert "On hold: unread card (seat 2)" in page.inner_text("#hold")
    page.screenshot(path=str(tmp_path / "femkort.png"), full_page=True)

    club = "the club's outbox cannot be written (database or disk is full): the hall hears nothing new"
    panel.hub.publish(FERBLI, FERBLI, TableStatus(last_refusal={"event": {}, "error": "Bo may not raise now"},
                                                  club=club))
    page.wait_for_selector("[data-game=ferbli]")
    assert "three-flush 26 in spades" in page.inner_text("#showdown")
    assert "Bo may not raise now" in page.inner_text("#refusal")
    assert page.inner_text("#club") == f"Club: {club}"  # a full state disk, said on the table's status
    _no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "ferbli.png"), full_page=True)


def test_page_updates_within_a_second_of_a_publish(panel: Panel, page: Any) -> None:
    panel.hub.publish(CRIBBAGE, CRIBBAGE, TableStatus())
    page.goto(panel.url)
    page.wait_for_selector("#live[data-state=live]")
    for score in (35, 37, 44):
        published = time.monotonic()
        panel.hub.publish({**CRIBBAGE, "scores": [score, 41]}, CRIBBAGE, TableStatus())
        page.wait_for_selector(f"[data-score='0']:text-is('{score}')", timeout=1000)
        assert time.monotonic() - published < 1.0


def test_page_survives_a_service_restart(panel: Panel, page: Any, tmp_path: Path) -> None:
    for score in range(5):  # the old service got further than the new one will
        panel.hub.publish({**CRIBBAGE, "scores": [score, 0]}, CRIBBAGE, TableStatus())
    page.goto(panel.url)
    page.wait_for_selector("#live[data-state=live]")
    port = panel.port
    panel.stop()
    page.wait_for_selector("#live:not([data-state=live])", timeout=5000)
    restarted = Panel(port)
    try:
        restarted.hub.publish({**CRIBBAGE, "scores": [60, 2]}, CRIBBAGE, TableStatus())  # version 1 again
        page.wait_for_selector("[data-score='0']:text-is('60')", timeout=8000)
        page.wait_for_selector("#live[data-state=live]")
        page.screenshot(path=str(tmp_path / "restarted.png"), full_page=True)
    finally:
        restarted.stop()


@dataclass
class Served:
    service: TableService
    url: str


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The real table service (as `cardtable run` runs it, on mock pins) with its panel on a loopback port."""
    empty = tmp_path / "no-frames"
    empty.mkdir()
    config = ServiceConfig(state_directory=tmp_path / "state", camera=CameraConfig(source="synthetic", fps=15),
                           pegboard=PegBoardConfig(enabled=False), console=ConsoleConfig(pin_hash=PIN_HASH),
                           game=GameConfig(players=("Ann", "Bo")))
    table = TableService(config, notifier=Notifier(None), source=ImageFolderSource(empty),
                         pin_factory=MockFactory(pin_class=MockPWMPin))
    panel = PanelServer(table, "127.0.0.1", 0, PanelSettings(pin_hash=PIN_HASH, keepalive=0.5))
    panel.start()
    thread = threading.Thread(target=table.run, name="service")
    thread.start()
    try:
        assert table.hub.wait_for(0, 30) is not None
        yield Served(table, panel.url())
    finally:
        table.stop()
        thread.join(20)
        panel.stop()


def test_console_resolves_a_hold_undoes_and_starts_a_game(served: Served, page: Any, tmp_path: Path) -> None:
    """Through the real table service: a cribbage hand waiting for the cut, then a card nobody could read."""
    service = served.service
    for item in (Button("next", None), *(FaceDownCount("crib", count) for count in range(1, 5)),
                 CardPlaced("9D", "starter"), CardPlaced("unknown", "seat-2")):  # Bo (the pone) plays first
        service.submit(item)
    assert service.settled(30) and service.session.hold is not None
    page.on("dialog", lambda dialog: dialog.accept())  # the console asks before destructive actions
    page.goto(served.url + "console")
    page.fill("#pin", PIN)
    page.click("#sign-in button")
    page.wait_for_selector("#hold-panel:not([hidden])")
    possible = [b.get_attribute("data-resolve") for b in page.query_selector_all("[data-resolve]")]
    assert possible == service.session.dealer_hold()["possible"] and "9D" not in possible  # type: ignore[index]
    page.screenshot(path=str(tmp_path / "console.png"), full_page=True)
    page.click("[data-resolve='5C']")
    page.wait_for_selector("#hold-panel", state="hidden")
    assert service.settled(10) and service.session.history[-1] == {"type": "play", "seat": 1, "card": "5C"}
    assert page.locator("#state [data-card='5C']").count() >= 1
    page.click("#undo")
    page.wait_for_function("document.getElementById('answer').textContent.includes('undone')")
    assert service.session.history[-1]["type"] == "starter"
    page.select_option("#start-game", "femkort")
    page.fill("#start-players", "Ann, Bo, Cy")
    page.click("#start button")
    page.wait_for_selector("#state [data-game=femkort]")
    assert service.session.setup.game == "femkort" and service.session.setup.players == ("Ann", "Bo", "Cy")
    assert "game 1 ended; game 2: femkort" in page.inner_text("#answer")
    page.screenshot(path=str(tmp_path / "console-femkort.png"), full_page=True)
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        first, second = journal.games()
        assert first.ended is not None and second.header["players"] == ["Ann", "Bo", "Cy"]
        console = [{k: v for k, v in line.items() if k != "t"} for line in journal.inputs(first.id)]
        assert {"type": "console", "action": "resolve", "card": "5C"} in console  # journaled as sensed


def test_the_demo_table_plays_on_the_spectator_page(page: Any, tmp_path: Path) -> None:
    """`cardtable demo` in-process: the simulated players' game, read by the service, live on a phone."""
    settings = DemoSettings("femkort", 3, seed=3, options={"pots_to_win": 1}, speed=0, reads=1, port=0,
                            state=tmp_path / "state")
    demo = DemoTable(settings, tmp_path / "state", lambda text: None)
    thread = threading.Thread(target=demo.run, name="demo")
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while demo.panel_url is None and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert demo.panel_url is not None, "the demo's panel did not start"
        page.goto(demo.panel_url)
        page.wait_for_selector("[data-game=femkort]")
        first = int(page.get_attribute("body", "data-version"))
        page.wait_for_selector("#trick [data-card]", timeout=120_000)  # a card played, read, judged, shown
        page.wait_for_function(f"Number(document.body.dataset.version) > {first + 5}", timeout=120_000)
        assert "Ann" in page.inner_text("#game")
        _no_sideways_scroll(page)
        page.screenshot(path=str(tmp_path / "demo.png"), full_page=True)
    finally:
        demo.stopping.set()
        thread.join(120)
    assert not thread.is_alive()


def test_console_uses_a_desktop_width(browser: Any) -> None:
    """At a desktop's width the console's cards fill both columns, the table first: as one cell of the
    page's grid, the desk took half the width beside the sign-in answer stretched to its height."""
    hub = StateHub()
    hub.publish(CRIBBAGE, CRIBBAGE, TableStatus(camera="online", pegboard="up"))
    server = make_server(create_app(hub, RecordingConsole(), settings=PanelSettings(pin_hash=PIN_HASH, keepalive=0.5)),
                         "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.effective_port}/console")
        page.fill("#pin", PIN)
        page.click("#sign-in button")
        page.wait_for_selector("#state [data-game=cribbage]")
        main, desk, answer = (page.locator(selector).bounding_box() for selector in ("main", "#desk", "#answer"))
        assert desk["width"] > 0.9 * main["width"] and answer["width"] > 0.9 * main["width"]
        assert answer["height"] < 100
        state, start = page.locator("#state").bounding_box(), page.locator("#start").bounding_box()
        assert state["y"] < page.locator("#deck-check, #enrol").first.bounding_box()["y"]  # the game on top
        assert state["x"] != start["x"] or state["y"] != start["y"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        context.close()
        hub.close()
        shut_down(server)
        thread.join(5)
