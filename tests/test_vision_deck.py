"""The deck in play: a table playing with the 32-card deck (Färbeln, 7..A) names no card outside it; such a
card is reported unknown, by its indices and by its pips alike, and the deck's own cards read as before."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.deck import FULL_DECK, PIQUET_DECK, deck_named
from vision.model import JUNK_RANK, RANKS
from vision.recognize import UNKNOWN, Recognizer
from vision.synthetic import PlacedCard, SceneStyle, _faces, render

STYLE = SceneStyle(size=(960, 540), card_width=120)
# three of the deck's cards and three below seven, lying apart
CARDS = [PlacedCard(name, 150 + 320 * (i % 3), 140 + 260 * (i // 3), 35 * i - 50)
         for i, name in enumerate(["9S", "5H", "KD", "2C", "AH", "6D"])]
INDEX_W, INDEX_H = 36, 105  # the shipped faces' index corners, face pixels (as in test_vision_faces)


@pytest.fixture(scope="module")
def readers() -> dict[str, Recognizer]:
    full = Recognizer()
    return {"52": full, "32": Recognizer(full.model, suit_verifier=full.suit_verifier, pip_network=full.pip_network,
                                         rank_verifier=full.rank_verifier, deck=PIQUET_DECK)}


def test_ranks_outside_the_deck_get_no_probability_and_the_rest_is_unchanged() -> None:
    p = np.random.default_rng(0).dirichlet(np.ones(len(RANKS) + 1), size=5)
    out = PIQUET_DECK.restrict(p)
    outside = [i for i, r in enumerate(RANKS) if r in ("2", "3", "4", "5", "6")]
    assert (out[:, outside] == 0).all()
    kept = [i for i in range(len(RANKS) + 1) if i not in outside]
    assert np.array_equal(out[:, kept], p[:, kept])  # not spread over the deck's ranks, nor moved to junk
    assert out[:, JUNK_RANK].tolist() == p[:, JUNK_RANK].tolist()
    assert FULL_DECK.restrict(p) is p


def test_a_deck_is_chosen_by_its_size() -> None:
    assert deck_named("32").ranks == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert deck_named("52").full and not PIQUET_DECK.full
    with pytest.raises(ValueError, match="unknown deck '36': choose 52 or 32"):
        deck_named("36")


def test_a_piquet_table_reports_a_card_below_seven_as_unknown(readers: dict[str, Recognizer]) -> None:
    frame, _ = render(CARDS, STYLE, seed=3)
    everything = [c.card for c in readers["52"].read(frame)]
    assert sorted(everything) == sorted(c.card for c in CARDS)  # all six read on a 52-card table
    piquet = [c.card for c in readers["32"].read(frame)]
    assert sorted(c for c in piquet if c != UNKNOWN) == ["9S", "AH", "KD"]
    assert piquet.count(UNKNOWN) == 3  # the 5H, 2C and 6D are seen, as cards that cannot be named


def test_pips_name_no_card_outside_the_deck(readers: dict[str, Recognizer]) -> None:
    """Indices blanked, a 5H and an 8C are named by their pips on a 52-card table; on a 32-card table only
    the 8C (five pips there are a pip missed or one too many)."""
    faces = dict(_faces())
    for name in ("5H", "8C"):
        faces[name] = faces[name].copy()
        for ys, xs in ((slice(0, INDEX_H), slice(0, INDEX_W)), (slice(-INDEX_H, None), slice(-INDEX_W, None))):
            faces[name][ys, xs] = 255
    frame, _ = render([PlacedCard("5H", 250, 270, 10), PlacedCard("8C", 650, 270, -20)], STYLE, seed=4, faces=faces)
    assert sorted(c.card for c in readers["52"].read(frame)) == ["5H", "8C"]
    assert [c.card for c in readers["32"].read(frame) if c.card != UNKNOWN] == ["8C"]


def test_detect_takes_the_deck_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frame, _ = render(CARDS, STYLE, seed=3)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), frame)

    def named(*deck: str) -> list[str]:
        assert main(["vision", "detect", str(image), "--json", *deck]) == 0
        return sorted(c["card"] for c in json.loads(capsys.readouterr().out)[0]["cards"] if c["card"] != UNKNOWN)

    assert named("--deck", "32") == ["9S", "AH", "KD"]
    assert named() == sorted(c.card for c in CARDS)
