"""The rank verifier (vision/ranks.py): the rank glyph cut at its own size. It doubts a named rank it sees as
another, and with the suit verifier it confirms a reading the index CNN declined (recognize.RESCUE_LOW)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from glyph_helpers import RanksUnjudged, disc_index
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, RANKS, SUITS
from vision.ranks import RANK_PATCH, RankVerifier, cut_rank_patches
from vision.recognize import UNKNOWN, Recognizer
from vision.synthetic import PlacedCard, SceneStyle, render

CARDS = Path(__file__).parent / "data" / "cards"


def test_the_patch_is_the_rank_glyph_centred_at_any_size() -> None:
    """The same index at two sizes gives the same patch: the rank bar centred, the suit disc outside."""
    w, h = RANK_PATCH
    patches = [cut_rank_patches(*(lambda im, c: (im, [c]))(*disc_index(s)))[0] for s in (1.5, 4.0)]
    for p in patches:
        ink = p.mean(axis=0) < -0.25
        ys, xs = np.nonzero(ink)
        assert abs(xs.mean() - (w - 1) / 2) < 1.5 and abs(ys.mean() - (h - 1) / 2) < 1.5
        assert 0.05 < ink.mean() < 0.3
    assert np.abs(patches[0] - patches[1]).mean() < 0.1


def test_no_candidates_no_patches_no_doubts() -> None:
    frame = np.zeros((10, 10, 3), np.uint8)
    assert cut_rank_patches(frame, []).shape == (0, 3, RANK_PATCH[1], RANK_PATCH[0])
    assert RankVerifier().doubts(frame, [], []).shape == (0,)


@pytest.fixture(scope="module")
def verifier() -> RankVerifier:
    return RankVerifier()


class _Sees(RankVerifier):
    """Gives every rank glyph these probabilities (RANKS, then junk)."""

    def __init__(self, p: np.ndarray) -> None:
        super().__init__()
        self.p = p

    def probabilities(self, frame: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        return np.tile(self.p, (len(cands), 1))


def test_a_named_rank_needs_support_of_its_own() -> None:
    """An unseen queen named 8 with the verifier at 0.001 for 8 and junk winning: doubted (before, only
    another rank at 0.7 was a doubt, and junk winning let the name stand). Junk winning with the named rank
    at 0.05, or another rank at 0.5: no doubt."""
    frame, index = disc_index(3.0)
    junk = np.zeros(JUNK_RANK + 1)
    junk[JUNK_RANK], junk[RANKS.index("8")] = 0.999, 0.001
    assert _Sees(junk).doubts(frame, [index], ["8S"]).tolist() == [True]
    some = np.zeros(JUNK_RANK + 1)
    some[JUNK_RANK], some[RANKS.index("8")], some[RANKS.index("Q")] = 0.45, 0.05, 0.5
    assert _Sees(some).doubts(frame, [index], ["8S"]).tolist() == [False]


def _table() -> np.ndarray:
    names = ["AS", "7H", "QD", "KC", "3S", "JH", "10D", "5C"]
    cards = [PlacedCard(name, 160 + 240 * (k % 5), 130 + 300 * (k // 5), 30 * k) for k, name in enumerate(names)]
    return render(cards, SceneStyle(size=(1280, 600), card_width=130), seed=4)[0]


def test_the_verifier_agrees_with_the_shipped_faces_ranks(verifier: RankVerifier) -> None:
    """Every corner index the recognizer names on a rendered table (aces, numbers, a '10', courts) has the
    named rank as the verifier's own best rank, and none is doubted."""
    frame = _table()
    readings = [rd for rd in Recognizer(rank_verifier=verifier).read_indices(frame) if rd.card != UNKNOWN]
    assert len(readings) >= 12
    cands = [rd.candidate for rd in readings]
    p = verifier.probabilities(frame, cands)
    assert [RANKS[k] for k in p[:, :JUNK_RANK].argmax(1)] == [rd.card[:-1] for rd in readings]
    assert not verifier.doubts(frame, cands, [rd.card for rd in readings]).any()
    assert verifier.doubts(frame, cands, ["9" + rd.card[-1] if rd.card[:-1] != "9" else "8S" for rd in readings]).all()


class _NinesAreSixes(RankVerifier):
    """The shipped verifier, made to see every '9' as a '6' (what an unlike deck's glyphs do to the CNN)."""

    def probabilities(self, frame: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        p = super().probabilities(frame, cands)
        nine, six = RANKS.index("9"), RANKS.index("6")
        p[:, six] += p[:, nine]
        p[:, nine] = 0.0
        return p


def test_a_doubted_rank_makes_the_card_unknown() -> None:
    """The 9's corners are named by the index CNN, and doubted: unknown (a court, so no pips can name it
    instead: the QH beside it is still read). A glyph the verifier cannot judge doubts nothing."""
    frame, _ = render([PlacedCard("9S", 200, 200, 10), PlacedCard("QH", 520, 220, -15)],
                      SceneStyle(size=(720, 420), card_width=120), seed=5)
    assert sorted(c.card for c in Recognizer().read(frame)) == ["9S", "QH"]
    assert sorted(c.card for c in Recognizer(rank_verifier=RanksUnjudged()).read(frame)) == ["9S", "QH"]
    indices = Recognizer(rank_verifier=_NinesAreSixes()).read_indices(frame)
    nines = [rd for rd in indices if rd.doubted]
    assert nines and all(rd.card == UNKNOWN and rd.guess is None for rd in nines)
    assert not any(rd.card == "9S" for rd in indices)


def test_declined_readings_both_verifiers_confirm_are_named(verifier: RankVerifier) -> None:
    """With the threshold out of the index CNN's reach every reading is declined; those whose rank and suit
    glyphs the two verifiers read as the CNN's guess are named, and are right. A rank verifier that finds
    every glyph junk confirms none."""
    frame = _table()
    named = [rd for rd in Recognizer(threshold=1.000001, rank_verifier=verifier).read_indices(frame)
             if rd.card != UNKNOWN]
    assert len(named) >= 8
    assert {rd.card for rd in named} <= {"AS", "7H", "QD", "KC", "3S", "JH", "10D", "5C"}
    unconfirmed = Recognizer(threshold=1.000001, rank_verifier=RanksUnjudged()).read_indices(frame)
    assert all(rd.card == UNKNOWN for rd in unconfirmed)


def test_a_declined_reading_of_a_card_another_card_names_stays_declined(verifier: RankVerifier) -> None:
    """A declined reading is not confirmed when an index of another card names its card (a second corner
    grouped with the wrong card, or a second copy). The card's own other corner, or another cut of the
    same index, naming it is no bar."""
    frame = _table()
    rec = Recognizer(rank_verifier=verifier)
    indices = rec.read_indices(frame)
    ace_a, ace_b = [rd.candidate for rd in indices if rd.card == "AS"][:2]
    far = max((rd.candidate for rd in indices if rd.card not in ("AS", UNKNOWN)),
              key=lambda c: np.hypot(c.centre[0] - ace_b.centre[0], c.centre[1] - ace_b.centre[1]))
    aces = np.array([RANKS.index("A")] * 2), np.array([SUITS.index("S")] * 2)
    threshold = 0.9

    def confirmed(named_by: IndexCandidate) -> list[bool]:  # ace_b declined at 0.6, `named_by` names 'AS'
        return rec._verified(frame, [named_by, ace_b], *aces, np.array([threshold, 0.6]), threshold,
                             threshold).tolist()
    assert confirmed(ace_b) == [False, True]  # the same index
    assert confirmed(ace_a) == [False, True]  # its opposite corner
    assert confirmed(far) == [False, False]  # another card


def test_a_declined_reading_whose_other_corner_reads_its_rank_with_another_suit_stays_declined(
        verifier: RankVerifier) -> None:
    """The card's opposite corner guessing (at PAIR_LOW) the declined reading's rank with another suit bars
    the verifiers' rescue: the card's two prints disagree. Guessing the same card, or another rank (a
    neighbour, as likely), does not."""
    frame = _table()
    rec = Recognizer(rank_verifier=verifier)
    ace_a, ace_b = [rd.candidate for rd in rec.read_indices(frame) if rd.card == "AS"][:2]
    conf = np.array([0.8, 0.6])

    def confirmed(other_corner: str) -> list[bool]:  # ace_b declined at 0.6 as 'AS', ace_a guessing `other_corner`
        r = np.array([RANKS.index(other_corner[:-1]), RANKS.index("A")])
        s = np.array([SUITS.index(other_corner[-1]), SUITS.index("S")])
        return rec._verified(frame, [ace_a, ace_b], r, s, conf, 0.9, 0.7).tolist()
    assert confirmed("AC")[1] is False
    assert confirmed("AS")[1] is True
    assert confirmed("KC")[1] is True


def test_a_rescue_is_barred_on_a_real_photo_whose_card_s_corners_disagree_on_the_suit() -> None:
    """A 'val' overhead photo under casts.py's dim cast (the cut around one card, tests/data/cards): the 3C's
    upper index was read 3S at 0.8 and both verifiers confirmed it at 0.98, naming a wrong 3S, while its
    other index guessed 3C at 0.86. The two prints disagree: nothing is named there now."""
    frame = cv2.imread(str(CARDS / "ammememe_roboflow" / "crops" / "WIN_20240627_12_04_48_dim_3C.png"))
    rec = Recognizer()
    assert {"3S", "3C"} <= {rd.guess for rd in rec.read_indices(frame) if rd.card == UNKNOWN}
    assert [c.card for c in rec.read(frame) if c.card != UNKNOWN] == []


def test_a_missing_or_corrupt_network_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot load card model"):
        RankVerifier(tmp_path / "rank.onnx")
    (tmp_path / "rank.onnx").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="cannot load card model .*rank.onnx"):
        RankVerifier(tmp_path / "rank.onnx")
