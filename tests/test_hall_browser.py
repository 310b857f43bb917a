"""The hall page in a real headless Chromium (Debian's, driven by Playwright) on a phone and a big screen,
served by the hall's waitress server, fed by tables publishing to a real Mosquitto: the tables appear
live, a table that leaves shows offline, a finished game brings its standings and its download; the
page names tonight's evening, says when the hall's disk is full, and links the past evenings."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from club_broker import Broker
from club_tables import CLUB, ClubTable, game_log, named
from controller.cli import main
from hall_support import RunningHall
from test_hall_evenings import hall_config
from test_hall_full_disk import fill, make_room
from test_browser_panel import CHROMIUM, browser  # noqa: F401  (the panel's Debian-chromium fixture)

pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="Debian's chromium is not installed")
PHONE = {"width": 360, "height": 740}
BIG_SCREEN = {"width": 1920, "height": 1080}


def test_the_hall_page_follows_the_tables_live(tmp_path: Path, browser: Any) -> None:
    broker = Broker(tmp_path / "broker", ["t-crib", "t-fem"])
    broker.start()
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    cribbage = named(game_log(0), ["Ann", "Bo", "Cy"])
    femkort = named(game_log(1), ["Di", "Eve", "Fay", "Gus"])
    tables = [ClubTable(tmp_path / "t-crib", "t-crib", cribbage[0], broker),
              ClubTable(tmp_path / "t-fem", "t-fem", femkort[0], broker)]
    try:
        for table in tables:
            table.publisher.start()
        phone = browser.new_page(viewport=PHONE)
        phone.goto(hall.url + "/")
        crib_card, fem_card = (phone.locator(f'[data-table="{name}"]') for name in ("t-crib", "t-fem"))
        crib_card.get_by_text("Cribbage").wait_for()
        fem_card.get_by_text("Femkort").wait_for()
        assert "online" in crib_card.inner_text() and "Ann" in crib_card.inner_text()
        assert "pot" in fem_card.inner_text() and "Fay 6" in fem_card.inner_text()

        for line in femkort[1:len(femkort) // 2]:
            tables[1].feed(line)
        tables[1].publisher.stop()  # the Femkort table leaves: its card says so, live
        phone.wait_for_selector('[data-table="t-fem"][data-online="false"]')
        assert "offline" in fem_card.inner_text()

        for line in cribbage[1:]:  # the cribbage game is won: the winner on its card
            tables[0].feed(line)
        winner = cribbage[0]["players"][tables[0].table.session.engine.summary()["winner"]]
        crib_card.get_by_text(f"won by {winner}").wait_for()
        tables[0].next()  # NEXT ends it: the standings, and its hand history to download
        summary = tables[0].finished()[0]["summary"]
        phone.locator("#game-list a").wait_for()
        rows = phone.locator("#standing-rows tr").all_inner_texts()
        assert rows[1].split() == [winner, str(summary["match_points"]), "1", "1"], rows
        href = phone.locator("#game-list a").get_attribute("href")
        assert hall.get(href).decode().splitlines() == tables[0].finished()[0]["history"]

        big = browser.new_page(viewport=BIG_SCREEN)
        big.goto(hall.url + "/")
        big.locator('[data-table="t-crib"]').get_by_text("Cribbage").wait_for()
        big.locator('[data-table="t-fem"]').wait_for()
        tops = big.evaluate("() => [...document.querySelectorAll('[data-table]')].map((e) => e.getBoundingClientRect().top)")
        assert len(tops) == 2 and tops[0] == tops[1], "on a big screen the tables stand side by side"
        big.screenshot(path=str(tmp_path / "hall.png"))
        phone.screenshot(path=str(tmp_path / "hall-phone.png"), full_page=True)
    finally:
        tables[0].publisher.stop()
        for table in tables:
            table.close()
        hall.close()
        broker.stop()


def test_the_hall_page_names_the_evening_shows_a_full_disk_and_lists_the_past_evenings(
        tmp_path: Path, browser: Any) -> None:
    broker = Broker(tmp_path / "broker", ["t-crib"])
    broker.start()
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    config = hall_config(tmp_path, broker)
    cribbage = named(game_log(0), ["Ann", "Bo", "Cy"])
    table = ClubTable(tmp_path / "t-crib", "t-crib", cribbage[0], broker)
    try:
        fill(hall.store)  # the hall's disk is full when the game ends
        table.publisher.start()
        page = browser.new_page(viewport=PHONE)
        page.goto(hall.url + "/")
        page.get_by_text("Club evening: riverside, evening 1").wait_for()
        table.play(cribbage[1:])
        page.locator("#fault").get_by_text("finished games cannot be kept").wait_for()
        assert "disk full" in page.locator("#fault").inner_text()
        make_room(hall.store)
        page.locator("#game-list a").wait_for()
        assert page.locator("#fault").is_hidden()
        winner = cribbage[0]["players"][table.finished()[0]["summary"]["winner"]]

        assert main(["hall", "new-evening", "--config", str(config)]) == 0
        page.get_by_text("Club evening: riverside, evening 2").wait_for()
        assert page.locator("#game-list").inner_text().strip() == "none yet"
        page.click("#past")
        evening = page.locator('[data-evening="1"]')
        evening.wait_for()
        assert "1 game" in evening.locator("h2").inner_text()
        rows = evening.locator("tr").all_inner_texts()
        assert rows[1].split()[:3] == [winner, str(table.finished()[0]["summary"]["match_points"]), "1"], rows
        href = evening.locator("a").get_attribute("href")
        assert href is not None and hall.get(href).decode().splitlines() == table.finished()[0]["history"]
        page.screenshot(path=str(tmp_path / "evenings.png"), full_page=True)
    finally:
        table.publisher.stop()
        table.close()
        hall.close()
        broker.stop()
