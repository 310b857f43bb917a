"""The console's deck check in a real headless Chromium (Debian's, through Playwright) at a phone's width,
against the real table service whose camera is the rendered table: the dealer taps Check deck, the deck
is spread (one card missing) and read live, Finish names the missing card and offers enrolment, the game
start is refused (`deck_check = "required"`) and the config's game waits, spectators see only that the
check failed and that the game waits; a second check passes and the game starts. Then a card enrolled
at the console, its question answered there, and a card the test deal did not read laid again there."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from controller.service.panel import PanelServer
from controller.service.pin import hash_pin
from controller.simulation.scene.spreads import spreads
from deck_check_support import PILE, Table, table
from vision.deck import FULL_DECK
from vision.live_enroll import deck_order
from vision.synthetic import PlacedCard
from vision.watch import SYNTHETIC_STYLE
from web_panel.settings import PanelSettings

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="Debian's chromium is not installed")
PHONE = {"width": 360, "height": 740}
PIN = "2468"


@pytest.fixture
def page() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"])
        context = chromium.new_context(viewport=PHONE)
        yield context.new_page()
        chromium.close()


@contextmanager
def console(page: Any, t: Table, pin_hash: str) -> Iterator[PanelServer]:
    """The panel on the table service, the dealer signed in at its console."""
    panel = PanelServer(t.service, "127.0.0.1", 0, PanelSettings(pin_hash=pin_hash, keepalive=0.5))
    panel.start()
    try:
        page.goto(panel.url("/console"))
        page.fill("#pin", PIN)
        page.click("#sign-in button")
        yield panel
    finally:
        panel.stop()


def count_says(page: Any, text: str) -> None:
    page.wait_for_function(f"(document.getElementById('check-count') || {{}}).textContent?.includes({text!r})")


def test_the_dealer_checks_the_deck_at_the_console(page: Any, tmp_path: Path) -> None:
    pin_hash = hash_pin(PIN)
    page.on("dialog", lambda dialog: dialog.accept())  # "a game is being played: end it?"
    with table(tmp_path, "required", pin_hash=pin_hash) as t, console(page, t, pin_hash) as panel:
        page.wait_for_selector("#deck-check:not([hidden])")
        assert page.is_visible("#check-required")
        page.wait_for_selector("#waiting")  # the config's game waits for its deck's check
        assert page.inner_text("#waiting").startswith("Waiting for a deck check: cribbage starts once")
        page.click("#start button")  # no check yet: the game start is refused
        page.wait_for_function("document.getElementById('answer').textContent.includes('check the 52-card deck')")
        page.click("#check-start")
        page.wait_for_selector("#check-next:not([hidden])")
        first, second, third = spreads([card for card in deck_order(FULL_DECK) if card != "QS"], SYNTHETIC_STYLE)
        t.lay(first)
        count_says(page, f"{len(first)} of 52")
        assert "spread 1" in page.inner_text("#check-count")
        page.click("#check-next")
        count_says(page, "spread 2")
        t.lay(PILE)
        t.lay(second)
        page.click("#check-next")
        count_says(page, "spread 3")
        t.lay(third)
        count_says(page, "51 of 52")
        page.click("#check-finish")
        page.wait_for_selector("#check-verdict")
        assert "not read: QS" in page.inner_text("#check-verdict")
        assert page.locator("#check-missing [data-card='QS']").count() == 1
        assert "enrol" in page.inner_text("#check-enrol")
        page.screenshot(path=str(tmp_path / "deck-check-failed.png"), full_page=True)
        t.lay(PILE)
        page.click("#start button")
        page.wait_for_function("document.getElementById('answer').textContent.includes('latest deck check failed')")
        spectator = page.context.new_page()
        spectator.goto(panel.url())
        spectator.wait_for_selector("[data-status='Deck']")
        assert spectator.inner_text("[data-status='Deck']") == "52-card deck failed its check \u2717"
        assert "QS" not in spectator.content()
        assert "52-card deck passes its check" in spectator.inner_text("#waiting")
        spectator.close()
        page.click("#check-start")
        page.wait_for_selector("#check-next:not([hidden])")
        for number, spread in enumerate(spreads(deck_order(FULL_DECK), SYNTHETIC_STYLE)):
            if number:
                page.click("#check-next")
                count_says(page, f"spread {number + 1}")
            t.lay(spread)
        count_says(page, "52 of 52")
        page.click("#check-finish")
        page.wait_for_function("document.getElementById('check-verdict')?.textContent.includes('passed')")
        page.wait_for_selector("#waiting", state="detached")  # the config's game starts
        t.lay(PILE)
        page.fill("#start-players", "Ann, Bo")
        page.click("#start button")
        page.wait_for_function("document.getElementById('answer').textContent.includes('game 2: cribbage')")


def test_the_dealer_enrols_a_card_at_the_console(page: Any, tmp_path: Path) -> None:
    pin_hash = hash_pin(PIN)
    with table(tmp_path, pin_hash=pin_hash) as t, console(page, t, pin_hash):
        page.click("#enrol-start")
        page.wait_for_selector("#enrol-finish:not([hidden])")
        t.lay([PlacedCard("QS", 300, 270)])
        page.wait_for_selector("#enrol-question:not([hidden])")
        assert page.inner_text("#enrol-asked") == "read as QS (empty: QS)"
        page.fill("#enrol-card", "ZZ")
        page.click("#enrol-question button[type=submit]")
        page.wait_for_function("document.getElementById('answer').textContent.includes(\"'skip'\")")
        page.fill("#enrol-card", "")
        page.click("#enrol-question button[type=submit]")
        page.wait_for_selector("#enrol-question", state="hidden")
        t.lay([PlacedCard("QS", 620, 270, angle=15)])
        page.wait_for_function("document.getElementById('enrol-line').textContent.includes('1/52 cards')")
        page.screenshot(path=str(tmp_path / "enrolment.png"), full_page=True)
        page.click("#enrol-finish")
        page.wait_for_function("document.getElementById('enrol-result').textContent.includes('read back 2 of 2')")
        page.wait_for_function("document.getElementById('answer').textContent.includes('enrolled 1 cards')")


def test_the_dealer_retakes_at_the_console_a_card_the_test_deal_did_not_read(page: Any, tmp_path: Path) -> None:
    """A queen named KH by a slip: Finish lists KH, nothing saved; Re-take them, KH laid again, Finish."""
    pin_hash = hash_pin(PIN)

    def line_says(text: str) -> None:
        page.wait_for_function(f"document.getElementById('enrol-line').textContent.includes({text!r})")

    def answer(asked: str, text: str, then: PlacedCard) -> None:
        page.wait_for_selector("#enrol-question:not([hidden])")
        page.wait_for_function(f"document.getElementById('enrol-asked').textContent.startsWith({asked!r})")
        if text == "skip":
            page.click("#enrol-skip")
        else:
            page.fill("#enrol-card", text)
            page.click("#enrol-question button[type=submit]")
        page.wait_for_selector("#enrol-question", state="hidden")
        t.lay([then])

    with table(tmp_path, pin_hash=pin_hash) as t, console(page, t, pin_hash):
        page.click("#enrol-start")
        page.wait_for_selector("#enrol-finish:not([hidden])")
        t.lay([PlacedCard("QS", 300, 270)])
        answer("read as QS", "KH", PlacedCard("QS", 620, 270, angle=15))  # the slip
        answer("read as QS, expected KH", "skip", PlacedCard("KH", 300, 270))
        line_says("1/52 cards")
        t.lay([PlacedCard("QS", 620, 270)])
        answer("read as QS", "", PlacedCard("QS", 300, 270, angle=15))
        line_says("2/52 cards")
        page.click("#enrol-finish")
        page.wait_for_selector("#enrol-review:not([hidden])")
        assert page.locator("#enrol-failed [data-card='KH']").count() == 1
        assert page.inner_text("#enrol-result").startswith("Not saved yet. Test deal: read back 3 of 4")
        assert page.is_hidden("#enrol-start")
        page.screenshot(path=str(tmp_path / "enrolment-review.png"), full_page=True)
        page.click("#enrol-retake")
        line_says("0/1 cards")
        page.wait_for_selector("#enrol-review", state="hidden")
        t.lay([PlacedCard("KH", 620, 270)])
        line_says("1/1 cards")
        page.click("#enrol-finish")
        page.wait_for_function("/^Enrolled \\S+Z: 2 cards\\. Test deal: read back 4 of 4/"
                               ".test(document.getElementById('enrol-result').textContent)")  # journaled
        # and what the deck's own glyphs judge, learnt from the table camera's views
        assert "the deck's own glyphs (suits" in page.inner_text("#enrol-result")
