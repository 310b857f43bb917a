"""Live enrolment (vision/live_enroll.py, `cardtable vision enroll --live`): real photos of one deck shown
to it as a camera would (a folder of stills, a video of them), in a given order or in any order with the
dealer confirming; views kept as enrolment photos, blank views re-taken; the deck enrolled from them reads
held-out photos of that deck at least as well as the generic recognizer, never less precisely."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deck import FULL_DECK, PIQUET_DECK
from vision.enroll import enroll, enrollment_photos
from vision.evaluate import evaluate, read_manifest
from vision.live_enroll import LiveEnrolment, deck_order, parse_card_file, parse_order
from vision.recognize import Recognizer
from vision.sources import ImageFolderSource, frames, load_image

DATA = Path(__file__).parent / "data" / "cards"
ENROL = DATA / "enrol"  # 2 'train' photos of each of 35 cards of the copied ammememe deck
ROOT = Path(__file__).resolve().parent.parent


def _held_out(recognizer: Recognizer) -> dict[str, object]:
    """The copied held-out photos of the same deck (ammememe overhead and single), never enrolled."""
    truth = {p: t for p, t in read_manifest(DATA / "manifest.csv").items() if p.startswith("ammememe_roboflow")}
    return evaluate(sorted(truth.items()), lambda p: load_image(DATA / p), recognizer.read)


def _cards_in_file_order() -> list[str]:
    return list(dict.fromkeys(parse_card_file(p) for p, _ in enrollment_photos(ENROL)))


def _enroll(*args: str) -> subprocess.CompletedProcess[str]:
    """`cardtable vision enroll ARGS` in a child process, nobody at its standard input."""
    return subprocess.run([sys.executable, "-m", "controller.cli", "vision", "enroll", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


class Dealer:
    """Answers the questions as a dealer who knows the card just laid; records them."""

    def __init__(self) -> None:
        self.laid = ""
        self.questions: list[str] = []

    def ask(self, question: str) -> str:
        self.questions.append(question)
        return "" if question.endswith(f"Enter for {self.laid}, ") else self.laid


def test_a_deck_enrolled_live_in_order_reads_its_held_out_photos_at_least_as_well(tmp_path: Path) -> None:
    said: list[str] = []
    dealer = Dealer()
    order = _cards_in_file_order()
    live = LiveEnrolment(tmp_path / "views", FULL_DECK, dealer.ask, said.append, order, views=2, still_frames=True)
    source = ImageFolderSource(ENROL)
    captured = live.run(f.image for f in frames(source))
    assert captured.missing == [] and captured.retakes == 0
    assert sorted(captured.photos) == sorted(order) and all(len(v) == 2 for v in captured.photos.values())
    assert dealer.questions == []  # every view read as the card the order expects, or not read at all
    assert said[-1].startswith("[" + "#" * 30 + "] 35/35 cards") and said[-1].endswith("done")
    assert "1/35 cards" in said[2] and "lay 2D" in said[2]  # the progress line after 10H's two views
    model = enroll(tmp_path / "views")
    generic, enrolled = _held_out(Recognizer()), _held_out(Recognizer(model))
    assert enrolled["precision"] >= generic["precision"]  # type: ignore[operator]
    assert enrolled["confidently_wrong"] <= generic["confidently_wrong"]  # type: ignore[operator]
    assert enrolled["correct"] >= generic["correct"]  # type: ignore[operator]


def test_in_any_order_the_dealer_confirms_and_a_blank_view_is_taken_again(tmp_path: Path) -> None:
    photos = [(p, p.stem.split("_")[0]) for p, _ in enrollment_photos(ENROL)][:12]  # 6 cards, 2 views each
    random.Random(3).shuffle(photos)
    blank = np.full((640, 640, 3), 90, np.uint8)  # the enrolment zone with no card on it
    said: list[str] = []
    dealer = Dealer()
    live = LiveEnrolment(tmp_path / "views", FULL_DECK, dealer.ask, said.append, views=2, still_frames=True)
    kept = []
    for n, (path, card) in enumerate(photos):
        if n == 1:
            dealer.laid = ""
            assert not live.offer(blank)
        dealer.laid = card
        kept.append(live.offer(load_image(path)))
    assert live.retakes == 1 and any(s.startswith("no card seen: lay") for s in said)
    # every view the generic recognizer reads is kept under the dealer's name for it, after asking
    assert all(kept) and len(dealer.questions) >= len(photos) // 2
    assert {card: len(paths) for card, paths in live.photos.items()} == {card: 2 for _, card in photos}
    assert all(path.name.startswith(card) for card, paths in live.photos.items() for path in paths)
    assert sorted(live.progress.done) == sorted({card for _, card in photos}) and live.finished is False


def test_orders_are_checked_against_the_deck() -> None:
    assert parse_order("as, 10h,7C", FULL_DECK) == ["AS", "10H", "7C"]
    with pytest.raises(ValueError, match="QS more than once"):
        parse_order("QS,KS,QS", FULL_DECK)
    with pytest.raises(ValueError, match="2S, not of the 32-card deck"):
        parse_order("AS,2S", PIQUET_DECK)
    with pytest.raises(ValueError, match="not a card name"):
        parse_order("AS,XX", FULL_DECK)
    assert len(deck_order(FULL_DECK)) == 52 and deck_order(PIQUET_DECK)[:2] == ["AS", "7S"]


def _video(path: Path, photos: list[Path], hold: int) -> None:
    """A video of the photos, each held still for `hold` frames (as a card lying on the camera's table)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 640))
    assert writer.isOpened()
    for photo in photos:
        for _ in range(hold):
            writer.write(load_image(photo))
    writer.release()


def test_the_command_enrols_from_a_video_and_reads_the_views_back(tmp_path: Path) -> None:
    photos = [p for p, _ in enrollment_photos(ENROL)][:6]  # 3 cards, 2 views each
    _video(tmp_path / "deal.avi", photos, hold=3)
    order = ",".join(dict.fromkeys(p.stem.split("_")[0] for p in photos))
    done = _enroll("--live", "--source", str(tmp_path / "deal.avi"), "--order", order, "--views", "2",
                   "--out", str(tmp_path / "deck.npz"))
    assert done.returncode == 0, done.stderr
    assert "3/3 cards" in done.stderr and "done" in done.stderr
    assert sorted(p.name for p in (tmp_path / "deck").iterdir()) == sorted(
        f"{c}_{n}.png" for c in order.split(",") for n in (1, 2))
    assert "enrolled 3 cards" in done.stdout and "read back 6 of 6 photos" in done.stdout
    assert "the deck's own glyphs (suits " in done.stdout  # views of the table's camera: its glyphs learnt


def test_one_view_per_card_is_said_to_name_only_unknown_cards(tmp_path: Path) -> None:
    photos = [p for p, _ in enrollment_photos(ENROL)][:4:2]  # 2 cards, one view each
    frames_dir = tmp_path / "frames"
    frames_dir.mkdir()
    for n, p in enumerate(photos):
        (frames_dir / f"{n:03d}.jpg").write_bytes(p.read_bytes())
    order = ",".join(p.stem.split("_")[0] for p in photos)
    done = _enroll("--live", "--source", str(frames_dir), "--order", order, "--views", "1",
                   "--out", str(tmp_path / "d.npz"))
    assert done.returncode == 0, done.stderr
    assert "one photo per card: the cards it leaves unknown are named" in done.stdout
    assert "the generic recognizer's own readings are kept as they are" in done.stdout


def test_a_view_that_does_not_read_back_is_taken_again(tmp_path: Path) -> None:
    """The second view of 10H is out of focus: the card is seen, so it is kept as the order's 10H, but the
    enrolled deck does not read it back; the dealer is asked to lay 10H again, and the next frame (a sharp
    view) replaces it."""
    frames_dir = tmp_path / "frames"
    frames_dir.mkdir()
    blurred = cv2.GaussianBlur(load_image(ENROL / "10H_2.jpg"), (0, 0), 8)
    shown = [load_image(ENROL / "10H_1.jpg"), blurred, load_image(ENROL / "2D_1.jpg"), load_image(ENROL / "2D_2.jpg"),
             load_image(ENROL / "10H_2.jpg")]
    for n, image in enumerate(shown):
        cv2.imwrite(str(frames_dir / f"{n:02d}.png"), image)
    done = _enroll("--live", "--source", str(frames_dir), "--order", "10H,2D", "--views", "2",
                   "--out", str(tmp_path / "d.npz"))
    assert done.returncode == 0, done.stderr
    assert "not read: 10H_2.png" in done.stderr and "re-take" in done.stderr and "lay 10H" in done.stderr
    assert "read back 4 of 4 photos; not read: none" in done.stdout and "not re-taken" not in done.stderr
    kept = load_image(tmp_path / "d" / "10H_2.png")
    assert np.abs(kept.astype(int) - shown[4]).mean() < np.abs(kept.astype(int) - blurred).mean()


def test_bad_live_enrolment_input(tmp_path: Path) -> None:
    both = _enroll(str(ENROL), "--live", "--source", str(ENROL), "--out", str(tmp_path / "a.npz"))
    assert both.returncode == 2 and "either a folder/manifest of photos or --live" in both.stderr
    bad_order = _enroll("--live", "--source", str(ENROL), "--order", "AS,AS", "--out", str(tmp_path / "b.npz"))
    assert bad_order.returncode == 2 and "AS more than once" in bad_order.stderr
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "old.png").write_bytes(b"")
    full = _enroll("--live", "--source", str(ENROL), "--keep", str(tmp_path / "c"), "--out", str(tmp_path / "c.npz"))
    assert full.returncode == 2 and "is not empty" in full.stderr
    assert not (tmp_path / "a.npz").exists() and not (tmp_path / "b.npz").exists()


def test_without_ask_a_question_waits_for_the_dealers_answer(tmp_path: Path) -> None:
    """The console's way: the view read is put to the dealer in `question`; frames meanwhile are not
    looked at; a bad answer is said and the question stays; Enter keeps the suggested card."""
    said: list[str] = []
    (first, card), (second, _) = [(path, parse_card_file(path)) for path, _ in enrollment_photos(ENROL)[:2]]
    live = LiveEnrolment(tmp_path / "views", FULL_DECK, None, said.append, views=2, still_frames=True)
    assert not live.offer(load_image(first)) and live.question is not None
    assert live.question.suggestion == card and live.question.prompt == f"read as {card}: Enter for {card}, "
    assert not live.offer(load_image(second)) and not live.photos  # the dealer answers first
    assert not live.answer("ZZ") and "'skip' to leave out this view" in said[-1] and live.question is not None
    assert live.answer("") and live.question is None
    assert [path.name for path in live.photos[card]] == [f"{card}_1.png"] and live.progress.current == card
    with pytest.raises(ValueError, match="no view is waiting"):
        live.answer("")
    assert live.offer(load_image(second)) and live.progress.done == [card]  # its second view, the card expected
    assert not live.offer(load_image(first)) and live.question is not None  # the card done, laid again
    assert not live.answer("") and said[-1].startswith(f"{card} is enrolled already")  # Enter may not take it
    assert live.answer("skip") and len(live.photos[card]) == 2
