"""The deck check: every card of the deck in play read once, none twice; otherwise what failed."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from controller.cli import main
from vision.deck import FULL_DECK, PIQUET_DECK
from vision.deck_check import check_deck
from vision.readings import UNKNOWN
from vision.synthetic import PlacedCard, SceneStyle, render

PIQUET = [r + s for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def test_every_card_once_passes() -> None:
    result = check_deck(reversed(PIQUET), PIQUET_DECK)
    assert result.passed and result.summary() == "deck check passed: all 32 cards read once"
    assert not check_deck(PIQUET, FULL_DECK).passed  # 20 cards of the 52 not read


def test_what_failed_is_named() -> None:
    cards = [c for c in PIQUET if c not in ("7S", "QD")] + ["KD", "KD", UNKNOWN, "5H"]
    result = check_deck(cards, PIQUET_DECK)
    assert not result.passed
    assert (result.missing, result.twice, result.unread, result.foreign) == (("7S", "QD"), (("KD", 3),), 1, ("5H",))
    assert result.summary() == ("deck check failed (30 of 32 read): not read: 7S, QD; read twice: KD (3 times); "
                                "1 card seen but not read; not of the 32-card deck: 5H. Spread the cards apart and "
                                "check again, or enrol the deck (cardtable vision enroll)")
    assert result.to_json() == {"passed": False, "deck": "32", "missing": ["7S", "QD"], "twice": {"KD": 3},
                                "unread": 1, "foreign": ["5H"]}


def test_a_bad_card_name_is_refused() -> None:
    with pytest.raises(ValueError, match="'1X'"):
        check_deck(["7S", "1X"], PIQUET_DECK)


def _spread(cards: list[str], path: Path) -> str:
    """The cards in rows of 6, apart, photographed by the synthetic table camera."""
    placed = [PlacedCard(c, 130 + 175 * (i % 6), 130 + 230 * (i // 6)) for i, c in enumerate(cards)]
    frame, _ = render(placed, SceneStyle(size=(1100, 720), card_width=120, tilt=0.0), seed=len(cards))
    cv2.imwrite(str(path), frame)
    return str(path)


def test_the_cli_reads_a_spread_deck_in_two_photos(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The 32-card deck spread in two photos of 16 (rendered): passed, exit 0. With the KD photographed in
    both and the 7S in neither: failed, exit 1, and it says so."""
    first, second = _spread(PIQUET[:16], tmp_path / "a.png"), _spread(PIQUET[16:], tmp_path / "b.png")
    assert main(["vision", "deckcheck", first, second, "--deck", "32"]) == 0
    assert capsys.readouterr().out == "deck check passed: all 32 cards read once\n"
    again = _spread(["KD"] + PIQUET[1:16], tmp_path / "c.png")
    assert main(["vision", "deckcheck", again, second, "--deck", "32", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert (result["passed"], result["missing"], result["twice"]) == (False, ["7S"], {"KD": 2})
