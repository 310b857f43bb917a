"""An isolated card's face, read apart from its indices' blobs: a number card's pips (counted on the shipped
faces, naming a card whose indices cannot be read, vetoing an index read as another rank), and the index
grid laid by the card's outline (naming a card whose index glyphs run into a drawn frame, unless its face
contradicts it)."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.outline import find_outlines
from vision.pips import CARD_W, Face, _standard_layout, read_face
from vision.readings import UNKNOWN, CardReading
from vision.recognize import Recognizer
from vision.synthetic import FACE_H, FACE_W, PlacedCard, SceneStyle, _faces, render

STYLE = SceneStyle(size=(800, 450), card_width=120)
# The shipped faces' index corners (top-left; the bottom-right one is its half turn), face pixels.
INDEX_W, INDEX_H = 36, 105


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _index_corners(face: np.ndarray, source: np.ndarray | None = None) -> np.ndarray:
    """`face` with both index corners blanked (paper), or replaced by those of `source`."""
    out = face.copy()
    top_left = (slice(0, INDEX_H), slice(0, INDEX_W))
    for ys, xs in (top_left, (slice(FACE_H - INDEX_H, FACE_H), slice(FACE_W - INDEX_W, FACE_W))):
        out[ys, xs] = 255 if source is None else source[ys, xs]
    return out


def _framed(face: np.ndarray) -> np.ndarray:
    """`face` with a drawn frame line run into both index corners (as bellot's border runs into its ranks):
    the index glyphs are no blobs of their own."""
    out = face.copy()
    cv2.rectangle(out, (30, 12), (FACE_W - 31, FACE_H - 13), (20, 20, 20), 3)
    return out


def _pips_by_card(cards: list[PlacedCard], faces: dict[str, np.ndarray] | None = None) -> dict[str, str | None]:
    frame, quads = render(cards, STYLE, seed=1, faces=faces)
    outlines, _ = find_outlines(frame)
    assert len(outlines) == len(cards)
    out: dict[str, str | None] = {}
    for outline in outlines:
        centre = tuple(map(float, outline.quad.mean(axis=0)))
        (card,) = [c.card for c, q in zip(cards, quads) if cv2.pointPolygonTest(q, centre, False) >= 0]
        pips = read_face(frame, outline).pips
        out[card] = None if pips is None else pips.rank
    return out


@pytest.mark.parametrize("names", [["2C", "3S", "4H", "5D", "6C", "7S"], ["8H", "9D", "10C", "AS", "JH", "KD"]])
def test_pips_are_counted_on_number_cards_and_not_on_courts_or_aces(names: list[str]) -> None:
    cards = [PlacedCard(name, 130 + 270 * (i % 3), 120 + 210 * (i // 3), 25 * i - 60) for i, name in enumerate(names)]
    want = {name: (name[:-1] if name[:-1].isdigit() else None) for name in names}
    assert _pips_by_card(cards) == want


def test_a_card_whose_indices_cannot_be_read_is_named_by_its_pips(recognizer: Recognizer) -> None:
    faces = dict(_faces())
    for name in ("7H", "3S", "10C"):
        faces[name] = _index_corners(faces[name])
    frame, _ = render([PlacedCard("7H", 150, 220, 15), PlacedCard("3S", 400, 220, -100),
                       PlacedCard("10C", 650, 220, 200)], STYLE, seed=2, faces=faces)
    assert not [rd for rd in recognizer.read_indices(frame) if rd.card != UNKNOWN]  # no index to read
    assert sorted(c.card for c in recognizer.read(frame)) == ["10C", "3S", "7H"]


def test_pips_name_no_card_that_is_read_elsewhere(recognizer: Recognizer) -> None:
    """A blank-cornered 7H beside a readable 7H: one of them is no 7H (a misread or a second deck), so the
    pips name nothing and only the index-read card is reported."""
    faces = dict(_faces())
    faces["7D"] = _index_corners(faces["7H"])  # drawn as a 7H, named 7D only so that both can be laid out
    frame, _ = render([PlacedCard("7H", 200, 220, 10), PlacedCard("7D", 600, 220, -10)], STYLE, seed=3, faces=faces)
    assert [c.card for c in recognizer.read(frame) if c.card != UNKNOWN] == ["7H"]


def test_pips_of_no_suit_or_of_the_wrong_colour_name_nothing(recognizer: Recognizer) -> None:
    """Five black squares in a five's layout, and a three of spades printed in red, indices blank: the suit
    network cannot name the squares' suit, and red ink contradicts a spade."""
    faces = dict(_faces())
    squares = np.full_like(faces["5D"], 255)
    for x, y in ((70, 80), (186, 80), (128, 192), (70, 304), (186, 304)):
        cv2.rectangle(squares, (x - 22, y - 22), (x + 22, y + 22), (0, 0, 0), -1)
    faces["5D"] = squares
    red = _index_corners(faces["3S"])
    red[red.max(axis=2) < 128] = (40, 40, 220)
    faces["3S"] = red
    frame, _ = render([PlacedCard("5D", 250, 220, 10), PlacedCard("3S", 550, 220, -20)], STYLE, seed=5, faces=faces)
    outlines, _ = find_outlines(frame)
    assert sorted(p.rank for o in outlines if (p := read_face(frame, o).pips)) == ["3", "5"]
    assert [c.card for c in recognizer.read(frame) if c.card != UNKNOWN] == []


def test_an_index_read_as_another_rank_is_vetoed_by_the_pips(recognizer: Recognizer) -> None:
    """A 3S printed with a 5S's indices (as an unseen typeface's 3 can read 5 on both corners, at 1.0)."""
    faces = dict(_faces())
    faces["3S"] = _index_corners(faces["3S"], source=faces["5S"])
    frame, _ = render([PlacedCard("3S", 400, 220, 30)], STYLE, seed=4, faces=faces)
    assert {rd.card for rd in recognizer.read_indices(frame)} == {"5S"}
    assert [c.card for c in recognizer.read(frame)] == [UNKNOWN]


@pytest.mark.parametrize("angle", [0, 90])
def test_an_index_read_as_another_rank_is_vetoed_on_a_card_stretched_near_square(recognizer: Recognizer,
                                                                                   angle: int) -> None:
    """The same 3S in a photo stretched along the card's short side (as dataset tools stretch photos to a
    square): the outline cannot tell the card's short sides from its long ones, so its face is read both ways
    up; three pips either way are no 5 (the leave-one-deck-out fold's flat-topped 3s read 5 so)."""
    faces = dict(_faces())
    faces["3S"] = _index_corners(faces["3S"], source=faces["5S"])
    frame, _ = render([PlacedCard("3S", 400, 220, angle)], STYLE, seed=4, faces=faces)
    across = (1.3, 1.0) if angle == 0 else (1.0, 1.3)
    frame = cv2.resize(frame, None, fx=across[0], fy=across[1], interpolation=cv2.INTER_AREA)
    (outline,) = recognizer._read(frame).outlines
    assert outline.corners == (0, 1, 2, 3)
    assert {rd.card for rd in recognizer.read_indices(frame)} == {"5S"}
    assert [c.card for c in recognizer.read(frame)] == [UNKNOWN]


def test_a_number_card_read_as_a_court_on_one_corner_is_vetoed_by_its_pips(recognizer: Recognizer) -> None:
    """A 5C with a jack's index in one corner and none in the other (bellot's number cards were read as
    jacks so): five pips are no jack. A court named by both corners is not looked at (none such on the
    deck designs; it saves a third of the pips' time)."""
    faces = dict(_faces())
    one_jack = _index_corners(faces["5C"], source=faces["JC"])
    one_jack[FACE_H - INDEX_H:, FACE_W - INDEX_W:] = 255
    faces["5C"] = one_jack
    frame, _ = render([PlacedCard("5C", 400, 220, 20)], STYLE, seed=9, faces=faces)
    assert [rd.card for rd in recognizer.read_indices(frame) if rd.card != UNKNOWN] == ["JC"]
    assert [c.card for c in recognizer.read(frame) if c.card != UNKNOWN] == []


@pytest.mark.parametrize("order", [("5S", "3S"), ("3S", "5S")])
def test_every_card_read_on_one_outline_is_checked_by_its_pips(recognizer: Recognizer, order: tuple[str, str]) -> None:
    """An outline whose corners name two cards is two overlapping cards to the grouping (a 3S whose one
    corner an unseen deck's 3 made 5S): both cards lie on the outline, and each is checked, in any order."""
    frame, _ = render([PlacedCard("3S", 400, 220, 20)], STYLE, seed=3)
    found = recognizer._read(frame)
    (outline,) = found.outlines
    corners = [rd for rd in found.readings if found.on_card.get(id(rd.candidate)) is outline]
    assert len(corners) == 2
    cards = [CardReading(name, 1.0, outline.to_list(), [replace(rd, card=name)]) for name, rd in zip(order, corners)]
    on_card = {id(c.corners[0].candidate): outline for c in cards}
    recognizer._read_faces(frame, cards, found._replace(on_card=on_card))
    assert {c.card for c in cards} == {"3S", UNKNOWN}


def test_the_pips_suit_vetoes_the_index_suit_in_grey_and_in_colour(recognizer: Recognizer) -> None:
    """A 5H printed with a 5S's black indices: the index ink's colour agrees with its spade, but the pips'
    suit does not (in grey, where colour cannot veto a suit: on the designs in grey, 18 -> 16 wrong cards; in
    colour, where under a tinted light a spade and a club are told apart by shape alone)."""
    faces = dict(_faces())
    faces["5H"] = _index_corners(faces["5H"], source=faces["5S"])
    frame, _ = render([PlacedCard("5H", 400, 220, 20)], STYLE, seed=3, faces=faces)
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    for seen in (grey, frame):
        assert {rd.card for rd in recognizer.read_indices(seen)} == {"5S"}
        assert [c.card for c in recognizer.read(seen)] == [UNKNOWN]


def test_a_number_read_on_one_corner_of_a_courts_face_is_unknown(recognizer: Recognizer) -> None:
    """A QH with a 6H's index in one corner and none in the other (an unseen deck's court read as a number on
    one corner): the index reads 6H, but the face shows a court's picture, which vetoes it, in colour and
    in grey (where a pipless face alone vetoes it too)."""
    faces = dict(_faces())
    six_on_court = _index_corners(faces["QH"], source=faces["6H"])
    six_on_court[FACE_H - INDEX_H:, FACE_W - INDEX_W:] = 255
    faces["QH"] = six_on_court
    frame, _ = render([PlacedCard("QH", 400, 220, -25)], STYLE, seed=6, faces=faces)
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert [rd.card for rd in recognizer.read_indices(frame) if rd.card != UNKNOWN] == ["6H"]
    assert [c.card for c in recognizer.read(frame)] == [UNKNOWN]
    assert [rd.card for rd in recognizer.read_indices(grey) if rd.card != UNKNOWN] == ["6H"]
    assert [c.card for c in recognizer.read(grey)] == [UNKNOWN]


def test_pips_lie_in_a_layout_symmetric_across_the_card_and_under_a_half_turn() -> None:
    def layout(*xy: tuple[float, float]) -> np.ndarray:  # given on a card 96 units wide, 144 high
        return np.array(xy, float) * CARD_W / 96

    h = CARD_W * 3 // 2

    def standard(pips: np.ndarray) -> bool:
        return _standard_layout(pips, h)

    five = [(30, 30), (66, 30), (48, 72), (30, 114), (66, 114)]
    assert standard(layout(*five))
    assert not standard(layout(*five[:4], (78, 114)))  # a pip off its column
    assert not standard(layout(*five[:3], (30, 94), (66, 94)))  # no half turn
    assert standard(layout(*five[:2], (48, 80), *five[3:]))  # the middle pip set low
    seven = [(30, 30), (66, 30), (48, 51), (30, 72), (66, 72), (30, 114), (66, 114)]
    assert standard(layout(*seven))
    assert not standard(layout(*seven, (30, 93)))  # an odd pip beside the axis


def test_a_card_whose_index_runs_into_a_drawn_frame_is_read_by_the_index_grid(recognizer: Recognizer) -> None:
    """(On the shipped courts so framed, 33 of 96 are read so over six layouts, none wrong; the KC and JH in
    each.)"""
    faces = dict(_faces())
    for name in ("KC", "JH", "7C"):
        faces[name] = _framed(faces[name])
    frame, _ = render([PlacedCard("KC", 150, 220, 0), PlacedCard("JH", 400, 220, 50), PlacedCard("7C", 650, 220, 100)],
                      STYLE, seed=0, faces=faces)
    assert not [rd for rd in recognizer.read_indices(frame) if rd.card != UNKNOWN]  # no blob is a glyph
    assert sorted(c.card for c in recognizer.read(frame)) == ["7C", "JH", "KC"]  # the seven by its pips


def test_the_index_grid_names_no_card_its_face_contradicts(recognizer: Recognizer) -> None:
    """Five squares in a five's layout (pips whose suit cannot be read) with a king's framed indices: the
    grid reads KC on both corners, but a face with five pips is no king."""
    faces = dict(_faces())
    squares = np.full_like(faces["5C"], 255)
    for x, y in ((70, 80), (186, 80), (128, 192), (70, 304), (186, 304)):
        cv2.rectangle(squares, (x - 22, y - 22), (x + 22, y + 22), (0, 0, 0), -1)
    faces["5C"] = _framed(_index_corners(squares, source=faces["KC"]))
    frame, _ = render([PlacedCard("5C", 400, 220, 15)], STYLE, seed=4, faces=faces)
    (outline,), _ = find_outlines(frame)
    a_kings_face = Face(pips=None, art=True)
    assert recognizer._read_grid(frame, outline, a_kings_face) == ("KC", pytest.approx(1.0, abs=0.01))
    assert recognizer._read_grid(frame, outline, Face(pips=None, art=False)) is None  # a court needs its picture
    assert [c.card for c in recognizer.read(frame) if c.card != UNKNOWN] == []
