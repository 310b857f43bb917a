"""Tracking: change detection, k-of-n voting, zone observations and the duplicate-card flag."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.covered import CoveredCards
from vision.detect import Detection, Detector, FaceDownGroup
from vision.readings import UNKNOWN, CardReading
from vision.synthetic import PlacedCard, SceneStyle, render, scene_calibration
from vision.observations import CardPlaced, CardRemoved, DuplicateCard, FaceDownCount
from vision.tracking import ChangeDetector, FaceDownPiles, TableTracker, Voter, diff_states, zone_state

ZONES = {"seat-1": [[0, 0], [100, 0], [100, 100], [0, 100]],
         "crib": [[200, 0], [300, 0], [300, 100], [200, 100]]}


def card_at(name: str, x: float, y: float) -> CardReading:
    return CardReading(name, 0.99, [[x - 5, y - 5], [x + 5, y - 5], [x + 5, y + 5], [x - 5, y + 5]])


def test_voter_needs_k_of_n() -> None:
    voter = Voter(k=3, n=5)
    seen = {"seat-1": Counter({"QS": 1})}
    assert voter.vote(seen) == {}
    assert voter.vote({}) == {}
    assert voter.vote(seen) == {}
    assert voter.vote(seen) == seen  # third sighting within five reads
    assert voter.vote({}) == seen  # one miss does not remove it (3 of the last 5)
    assert voter.vote({}) == {}  # now only 2 of the last 5
    with pytest.raises(ValueError):
        Voter(k=4, n=3)


def test_zone_state_and_duplicates() -> None:
    det = Detection([card_at("QS", 50, 50), card_at("QS", 250, 50), card_at(UNKNOWN, 50, 60)],
                    [FaceDownGroup(4, [[210, 10], [290, 10], [290, 90], [210, 90]])])
    state, dups = zone_state(det, ZONES)
    assert state == {"seat-1": Counter({"QS": 1, "#unknown": 1}), "crib": Counter({"QS": 1, "#down": 4})}
    assert dups == [DuplicateCard("QS", ("crib", "seat-1"))]
    assert str(dups[0]).startswith("QS seen twice")


def test_diff_states_words() -> None:
    old = {"seat-1": Counter({"QS": 1})}
    new = {"seat-1": Counter({"5H": 1}), "crib": Counter({"#down": 4})}
    obs = diff_states(old, new)
    assert [str(o) for o in obs] == ["4 face-down cards in crib", "QS removed from seat-1", "5H placed in seat-1"]
    assert CardRemoved("QS", "seat-1") in obs and FaceDownCount("crib", 4) in obs


def test_change_detector_ignores_noise_sees_a_card() -> None:
    rng = np.random.default_rng(0)
    base = np.full((720, 1280, 3), 90, np.uint8)
    cd = ChangeDetector()
    assert cd.changed(base)
    noisy = np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)
    assert not cd.changed(noisy)
    moved = noisy.copy()
    moved[300:420, 600:690] = 250  # a card lands
    assert cd.changed(moved)


def test_tracker_settles_votes_and_idles() -> None:
    frames = {"empty": np.full((120, 320, 3), 40, np.uint8)}
    frames["played"] = frames["empty"].copy()
    frames["played"][40:60, 40:60] = 255
    dets = {id(frames["empty"]): Detection(), id(frames["played"]): Detection([card_at("QS", 50, 50)])}
    calls: list[int] = []

    def detect(frame: np.ndarray) -> Detection:
        calls.append(1)
        return dets[id(frame)]

    tracker = TableTracker(detect, ZONES, k=2, n=3, settle_frames=1)
    out = [tracker.process(frames["empty"]) for _ in range(6)]
    assert all(o == [] for o in out) and len(calls) == 3  # n reads after settling, then idle
    out = [tracker.process(frames["played"]) for _ in range(6)]
    assert [o for o in out if o] == [[CardPlaced("QS", "seat-1")]]  # emitted once, after its 3 reads
    assert len(calls) == 6


def test_one_report_per_settled_scene() -> None:
    """Voted over the settled scene's own reads, reported once when they are done: a card read as
    unknown in some of its frames is that card, not one more unreadable card, and makes no running
    counts or 'removed' / 'placed' flicker."""
    empty = np.full((120, 320, 3), 40, np.uint8)
    played = empty.copy()
    played[40:60, 40:60] = 255
    reads = iter([Detection()] * 5 + [Detection([card_at(name, 50, 50)]) for name in
                                      ("QS", "QS", UNKNOWN, UNKNOWN, UNKNOWN)])
    tracker = TableTracker(lambda frame: next(reads), ZONES, k=2, n=5, settle_frames=1)
    reports = [o for o in (tracker.process(frame) for frame in [empty] * 6 + [played] * 6) if o]
    # (reading by reading, the old sliding vote placed QS at its 2nd read and reported 1 unreadable at the 4th)
    assert reports == [[CardPlaced("QS", "seat-1")]]


def test_a_card_laid_but_never_read_is_placed_as_unknown() -> None:
    """The session must hear that a card was laid even when it cannot be named (it holds the table): the
    scene's report places an unknown card (once: no count of unreadable cards besides); named later, it
    is replaced."""
    empty = np.full((120, 320, 3), 40, np.uint8)
    played = empty.copy()
    played[40:60, 40:60] = 255
    named = played.copy()
    named[45:50, 45:50] = 0  # someone straightened it: a new scene
    reads = iter([Detection()] * 3 + [Detection([card_at(UNKNOWN, 50, 50)])] * 3
                 + [Detection([card_at("7D", 50, 50)])] * 3)
    tracker = TableTracker(lambda frame: next(reads), ZONES, k=2, n=3, settle_frames=1)
    reports = [o for o in (tracker.process(frame) for frame in [empty] * 4 + [played] * 4 + [named] * 4) if o]
    assert reports == [[CardPlaced("unknown", "seat-1")],
                       [CardRemoved("unknown", "seat-1"), CardPlaced("7D", "seat-1")]]


def test_face_down_piles_count_arrivals() -> None:
    def pile_frame(*shifts: int) -> tuple[np.ndarray, FaceDownGroup]:
        """Squared cards (40 x 60 px, a dark band across each) at the crib: one frame shows one card."""
        frame = np.full((100, 320, 3), 60, np.uint8)
        for dx in shifts:
            frame[20:80, 230 + dx:270 + dx] = 230
            frame[45:55, 235 + dx:265 + dx] = 90
        x0, x1 = 230 + min(shifts), 270 + max(shifts)
        quad = [[x0, 20], [x1, 20], [x1, 80], [x0, 80]]
        return frame, FaceDownGroup(1, quad, quad, card_area=2400.0)

    piles = FaceDownPiles()
    frame, group = pile_frame(0)
    assert piles.read(frame, [group], ZONES, first=True) == {"crib": 1}
    frame, group = pile_frame(0, 3)  # a second card lands 3 px off: the footprint and pixels change
    assert piles.read(frame, [group], ZONES, first=True) == {"crib": 2}
    assert piles.read(frame, [group], ZONES, first=False) == {"crib": 2}
    assert piles.read(frame, [group], ZONES, first=True) == {"crib": 2}  # settled again, nothing changed
    assert piles.read(frame, [FaceDownGroup(3, group.quad, group.outline, 2400.0)], ZONES, first=True) == {"crib": 3}
    assert piles.read(np.full_like(frame, 60), [], ZONES, first=True) == {}  # taken away


def test_unknown_cards_are_the_cards_beyond_those_read_by_name() -> None:
    voter = Voter(k=2, n=3)
    z = "seat-1"
    states = [{z: Counter({"QS": 1, "#unknown": 1})}, {z: Counter({"#unknown": 2})},
              {z: Counter({"QS": 1, "#unknown": 1})}]
    for state in states:
        voted = voter.vote(state)
    assert voted == {z: Counter({"QS": 1, "#unknown": 1})}  # two cards: QS and one never read
    assert diff_states({}, voted) == [CardPlaced("QS", z), CardPlaced("unknown", z)]
    # read by name in a later scene: the unknown card left, the QS came
    assert diff_states({z: Counter({"#unknown": 1})}, {z: Counter({"QS": 1})}) == [
        CardRemoved("unknown", z), CardPlaced("QS", z)]
    face_down_only = Voter(k=1, n=1).vote({"crib": Counter({"#down": 4})})
    assert face_down_only == {"crib": Counter({"#down": 4})}  # face-down cards are not unknown face-up ones


def test_a_card_hidden_under_later_ones_stays_until_its_place_is_bare() -> None:
    """A pegging pile on a calibrated table, read by the real detector: the 5H, its two indices covered by
    the 9C and the KD played onto it, is no longer read but has not left; slid out from under them it has."""
    style = SceneStyle(size=(960, 540), card_width=110)
    detector = Detector(calibration=scene_calibration(style))
    tracker = TableTracker(detector.detect, {"pile": [[200, 100], [760, 100], [760, 480], [200, 480]]}, k=1, n=1)
    five, nine, king = (PlacedCard("5H", 400, 290, 0), PlacedCard("9C", 428, 336, 8), PlacedCard("KD", 378, 252, -6))
    reports = []
    for cards in ([five], [five, nine], [five, nine, king], [nine, king], []):
        frame, _ = render(cards, style, seed=1)
        reports.append([str(o) for _ in range(4) for o in tracker.process(frame)])  # settled after 2
    assert "5H" not in {c.card for c in detector.detect(render([five, nine, king], style, seed=1)[0]).cards}
    assert reports == [["5H placed in pile"], ["9C placed in pile"], ["KD placed in pile"],  # not "5H removed"
                       ["5H removed from pile"], ["9C removed from pile", "KD removed from pile"]]


def test_an_unreadable_card_where_a_hidden_card_lies_is_that_card() -> None:
    covered = np.full((120, 320), 255, np.uint8)  # cards everywhere
    cards = CoveredCards()
    old = {"seat-1": Counter({"QS": 1})}
    cards.keep({}, old, covered, [("seat-1", card_at("QS", 50, 50))])
    now = {"seat-1": Counter({"#unknown": 2, "7D": 1})}
    placed = [("seat-1", card_at(UNKNOWN, 90, 90)), ("seat-1", card_at(UNKNOWN, 52, 48)),
              ("seat-1", card_at("7D", 60, 60))]  # the second unreadable card lies where the QS was
    assert cards.keep(old, now, covered, placed) == {"seat-1": Counter({"QS": 1, "7D": 1, "#unknown": 1})}
    assert cards.keep(old, now, None, placed) == now  # no calibrated table: nothing to tell hidden from gone
    for mask, kept in ((covered, old), (np.zeros_like(covered), {})):  # hidden, or its place bare: taken away
        remembered = CoveredCards()
        remembered.keep({}, old, mask, [("seat-1", card_at("QS", 50, 50))])
        assert remembered.keep(old, {}, mask, []) == kept
