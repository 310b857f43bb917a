"""The deck check through the real service: rendered spreads of the deck as its camera's frames, read by
its own watcher (detector, tracker, votes), judged by the check instead of the game; the verdict journaled,
shown to the dealer (and as passed / failed only to spectators), kept across a restart, and with
`deck_check = "required"` the console's game start refused until a check passed."""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import JOURNAL_NAME, Journal
from controller.service.config import GameConfig
from controller.simulation.scene.spreads import spreads
from deck_check_support import PILE, Table, table
from vision.deck import FULL_DECK, PIQUET_DECK
from vision.live_enroll import deck_order
from vision.synthetic import PlacedCard
from vision.watch import SYNTHETIC_STYLE
from web_panel.ports import GameStart

FULL = deck_order(FULL_DECK)


def test_the_whole_deck_in_three_spreads_passes_and_play_hears_the_camera_again(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        said = t.service.deck_check("start")
        assert said.ok and "52-card deck" in said.message
        first, second, third = spreads(FULL, SYNTHETIC_STYLE)
        t.lay(first)
        progress = t.status()
        assert (progress["state"], progress["read"], progress["spread"]) == ("checking", len(first), 1)
        assert "AS" not in progress["missing"] and "KC" in progress["missing"]
        assert t.service.deck_check("next").ok
        t.lay(PILE)  # the first spread gathered: it stays counted
        t.lay(second)
        assert t.service.deck_check("next").ok
        t.lay(third)
        finish = t.service.deck_check("finish")
        assert finish.ok and finish.message == "deck check passed: all 52 cards read once"
        assert t.status(public=True) == {"state": "passed", "deck": "52", "at": t.status()["at"]}
        t.lay(PILE)
        game_id = t.service.table.game_id
        with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
            # no card of the check; the gathered deck's pile is the game's
            assert [line["type"] for line in journal.inputs(game_id)] == ["camera", "face_down"]
        t.lay([*PILE, PlacedCard("5H", 480, 470)])  # the deck gathered: the game's camera again
        assert t.service.session.table.faces.get("seat-1") == ["5H"]
        gathered = t.status()  # the journaled verdict, as the console shows it once the deck is off the table
        assert (gathered["state"], gathered["read"], gathered["size"]) == ("passed", 52, 52)


def test_a_missing_card_and_one_laid_twice_are_named_and_offer_enrolment(tmp_path: Path) -> None:
    cards = [card for card in FULL if card != "QS"]
    cards.insert(30, "7H")  # 7H lies in the first spread and again in the second
    with table(tmp_path) as t:
        verdict = t.check(cards)
        assert verdict.startswith("deck check failed (51 of 52 read): not read: QS; read twice: 7H (2 times)")
        assert "enrol" in verdict
        check = t.status()
        assert (check["state"], check["missing"], check["twice"]) == ("failed", ["QS"], {"7H": 2})
        public = t.status(public=True)
        assert public["state"] == "failed" and "QS" not in str(public)


def test_a_check_is_refused_mid_game_and_its_steps_out_of_order_say_why(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        assert "no deck check is running" in t.service.deck_check("next").message
        assert "not a deck check step: 'shuffle'" in t.service.deck_check("shuffle").message
        t.lay([PlacedCard("5H", 480, 470)])  # a card of the game on the table
        refused = t.service.deck_check("start")
        assert not refused.ok and "1 card of the game still lie" in refused.message
        t.lay(PILE)
        assert t.service.deck_check("start").ok
        assert "running already" in t.service.deck_check("start").message
        assert "no card was seen" in t.service.deck_check("finish").message
        assert "no card of this spread" in t.service.deck_check("next").message
        refused = t.service.start_game(GameStart("cribbage", ("Ann", "Bo")))
        assert not refused.ok and "a deck check is running" in refused.message


def test_required_refuses_a_game_until_its_deck_passed_and_a_restart_keeps_the_verdict(tmp_path: Path) -> None:
    ferbli = GameStart("ferbli", ("Ann", "Bo", "Cy"), options={"min": 1, "max": 10}, chips=(20, 20, 20))
    with table(tmp_path, "required") as t:
        refused = t.service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy")))
        assert not refused.ok and "check the 52-card deck first" in refused.message
        t.check([card for card in FULL if card != "2D"])
        refused = t.service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy")))
        assert not refused.ok and "the latest deck check failed" in refused.message and "2D" in refused.message
        assert t.check(FULL).startswith("deck check passed")
        assert t.service.start_game(GameStart("femkort", ("Ann", "Bo", "Cy"))).ok
        refused = t.service.start_game(ferbli)  # Färbeln's 32 cards were not checked
        assert not refused.ok and "ferbli is played with 32 cards" in refused.message
    with table(tmp_path, "required") as t:  # restarted: the latest verdict stands
        assert t.status()["state"] == "passed" and t.status()["deck"] == "52"
        assert t.service.start_game(GameStart("cribbage", ("Ann", "Bo"))).ok


def test_a_faerbeln_table_checks_its_32_cards_and_a_six_is_not_of_its_deck(tmp_path: Path) -> None:
    game = GameConfig("ferbli", ("Ann", "Bo", "Cy"), options={"min": 1, "max": 10}, chips=(20, 20, 20))
    with table(tmp_path, game=game) as t:
        verdict = t.check([*deck_order(PIQUET_DECK), "6S"])
        assert verdict.startswith("deck check failed (32 of 32 read): not of the 32-card deck: 6S")


def test_the_deck_check_off_in_the_config_is_refused(tmp_path: Path) -> None:
    with table(tmp_path, "off") as t:
        refused = t.service.deck_check("start")
        assert not refused.ok and 'deck_check = "off"' in refused.message
        assert t.service.start_game(GameStart("cribbage", ("Ann", "Bo"))).ok


@pytest.mark.parametrize("deck", ["48", ""])
def test_an_unknown_deck_is_refused_naming_the_choices(tmp_path: Path, deck: str) -> None:
    with table(tmp_path) as t:
        said = t.service.deck_check("start", deck or "none")
        assert not said.ok and "choose 52 or 32" in said.message


def test_the_dealer_may_say_the_deck_is_gathered_when_the_camera_cannot_see_it_go(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        assert "no finished deck check" in t.service.deck_check("gathered").message
        assert t.service.deck_check("start").ok
        t.lay(spreads(FULL, SYNTHETIC_STYLE)[0])
        assert t.service.deck_check("finish").ok  # the spread still lies there
        refused = t.service.start_game(GameStart("cribbage", ("Ann", "Bo")))
        assert not refused.ok and "The deck is gathered" in refused.message
        assert t.service.deck_check("gathered").ok and t.status()["state"] == "failed"  # the verdict stands
        assert t.service.start_game(GameStart("cribbage", ("Ann", "Bo"))).ok


def test_with_required_checks_the_configured_game_waits_for_its_deck_and_starts_once_it_passes(
        tmp_path: Path) -> None:
    waits = "waiting for a deck check: cribbage starts once the 52-card deck passes its check"

    def waiting(t: Table) -> object:
        return t.service.hub.snapshot().public_document()["status"]["waiting"]

    with table(tmp_path, "required") as t:  # the config's game, at boot, on a deck never checked
        assert waiting(t) == waits
        t.lay([PlacedCard("5H", 480, 470)])  # dealt before the check: no card of the game
        assert not t.service.session.table.faces.get("seat-1")
        refused = t.service.undo()
        assert not refused.ok and waits in refused.message
        t.lay(PILE)
        t.check([card for card in FULL if card != "2D"])
        assert waiting(t) == waits  # a failed check starts nothing
        first = t.service.table.game_id
        assert t.service.end_game().ok and waiting(t) == waits  # nor does ending it: the next one waits too
        game_id = t.service.table.game_id
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        assert {line["type"] for line in journal.inputs(first)} == {"camera"}  # the game took nothing
    with table(tmp_path, "required") as t:  # restarted: the failed check stands, the game still waits
        assert waiting(t) == waits
        assert t.check(FULL).startswith("deck check passed")
        assert waiting(t) is None
    with table(tmp_path, "required") as t:  # restarted before a card was played: the journaled pass counts
        assert waiting(t) is None and t.service.table.game_id == game_id
        t.lay([*PILE, PlacedCard("5H", 480, 470)])
        assert t.service.session.table.faces.get("seat-1") == ["5H"]
