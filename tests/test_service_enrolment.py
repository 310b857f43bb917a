"""Live enrolment at the console through the real service: its camera (the rendered table) shows the
cards laid one at a time, the views are put to the dealer and answered through the console port, the deck
is enrolled, read back, saved in the state directory and read with at once, and again after a restart;
its verdict is journaled and shown after the restart; the cards laid for it never reach the game."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from controller.journal import JOURNAL_NAME, Journal
from controller.service.camera import Detector
from controller.service.enrolment import ENROLLED_NAME
from deck_check_support import PILE, Table, table
from vision.enroll import EnrolledModel
from vision.synthetic import PlacedCard


def enrolment(t: Table, wanted: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The enrolment's state in the dealer document once `wanted(state)` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = t.service.hub.snapshot().dealer_document()["status"]["enrolment"]
        if state is not None and wanted(state):
            return dict(state)
        time.sleep(0.05)
    raise AssertionError(f"the enrolment never got there: {t.service.hub.snapshot().status.enrolment}")


def recognizer_model(t: Table) -> object:
    assert t.service.camera is not None
    detector = t.service.camera.watcher.check.__self__  # type: ignore[attr-defined]
    assert isinstance(detector, Detector)
    return detector.recognizer.model


def test_the_dealer_enrols_cards_at_the_console_and_the_table_reads_with_them(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        service = t.service
        assert "not an enrolment step: 'go'" in service.enrolment("go").message
        assert "no enrolment is running" in service.enrolment("finish").message
        said = service.enrolment("start")
        assert said.ok and "52-card deck" in said.message
        assert "an enrolment is running" in service.deck_check("start").message
        for done, card in enumerate(("QS", "7H")):
            t.lay([PlacedCard(card, 300, 270)])  # a new card's first view is put to the dealer
            question = enrolment(t, lambda s: s["question"] is not None)["question"]
            assert question == {"text": f"read as {card}", "suggestion": card}
            if card == "7H":  # a wrong answer is said, and the question stays
                assert "'skip' to leave out this view" in service.enrolment("answer", "ZZ").message
                assert enrolment(t, lambda s: True)["question"] is not None
            assert service.enrolment("answer", "").ok  # Enter: the card read
            t.lay([PlacedCard(card, 620, 270, angle=15)])  # moved: its second view, the card expected
            enrolment(t, lambda s: s["done"] == done + 1)
        state = enrolment(t, lambda s: s["done"] == 2)
        assert state["line"].startswith("[#") and "2/52 cards" in state["line"]
        finished = service.enrolment("finish")
        assert finished.ok and "enrolled 2 cards" in finished.message and "read back 4 of 4 photos" in finished.message
        # the table's own camera: the deck's glyphs are learnt (two views of each card, two corners each)
        assert "the deck's own glyphs (suits S, H; ranks 7, Q)" in enrolment(t, lambda s: True)["glyphs"]
        assert (tmp_path / "state" / ENROLLED_NAME).is_file()
        assert isinstance(recognizer_model(t), EnrolledModel)  # read with at once
        t.lay(PILE)  # the last card taken away: the game hears the camera again
        t.lay([*PILE, PlacedCard("5H", 480, 470)])
        assert service.session.table.faces.get("seat-1") == ["5H"]
        with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
            placed = [line["card"] for line in journal.inputs(service.table.game_id) if line["type"] == "placed"]
        assert placed == ["5H"]  # none of the enrolment's cards
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        at, verdict = journal.last_enrolment() or ("", {})
    assert (verdict["deck"], verdict["cards"], verdict["failed"], verdict["photos"]) == ("52", ["QS", "7H"], [], 4)
    with table(tmp_path) as t:  # restarted: the deck enrolled at the console is read with, its verdict shown
        assert isinstance(recognizer_model(t), EnrolledModel)
        last = enrolment(t, lambda s: True)
        assert (last["state"], last["at"], last["cards"]) == ("enrolled", at, ["QS", "7H"])
        assert last["read_back"].startswith("read back 4 of 4 photos")
        assert "the deck's own glyphs (suits S, H; ranks 7, Q)" in last["glyphs"]  # journaled with it


def slip(t: Table) -> dict[str, Any]:
    """The dealer names the first view of a queen of spades KH by mistake, then lays KH and QS; Finish:
    the test deal reads that view as QS. The review, once shown."""
    service = t.service
    assert service.enrolment("start").ok
    t.lay([PlacedCard("QS", 300, 270)])
    enrolment(t, lambda s: s["question"] is not None)
    assert service.enrolment("answer", "KH").ok  # the slip
    t.lay([PlacedCard("QS", 620, 270, angle=15)])  # its next view reads QS, not the KH expected: left out
    assert enrolment(t, lambda s: s["question"] is not None)["question"]["text"] == "read as QS, expected KH"
    assert service.enrolment("answer", "skip").ok
    t.lay([PlacedCard("KH", 300, 270)])  # KH's second view, read as the card expected
    enrolment(t, lambda s: s["done"] == 1)
    t.lay([PlacedCard("QS", 620, 270)])
    enrolment(t, lambda s: s["question"] is not None)
    assert service.enrolment("answer", "").ok
    t.lay([PlacedCard("QS", 300, 270, angle=15)])
    enrolment(t, lambda s: s["done"] == 2)
    assert "no card to re-take" in service.enrolment("retake").message
    finished = service.enrolment("finish")
    assert finished.ok and "read wrong: KH_1.png as QS" in finished.message and "Re-take" in finished.message
    return enrolment(t, lambda s: s["state"] == "review")


def test_a_view_the_test_deal_does_not_read_back_is_laid_again_before_the_deck_is_saved(tmp_path: Path) -> None:
    """KH is listed and nothing is saved yet; the dealer re-takes KH (the progress shows it), and the
    deck enrolled again reads back whole, is saved, journaled and read with at once."""
    with table(tmp_path) as t:
        service = t.service
        review = slip(t)
        assert review["failed"] == ["KH"] and "read back 3 of 4 photos" in review["read_back"]
        assert not (tmp_path / "state" / ENROLLED_NAME).exists()  # nothing saved yet
        assert not isinstance(recognizer_model(t), EnrolledModel)
        assert "an enrolment is running" in service.deck_check("start").message
        said = service.enrolment("retake")
        assert said.ok and "lay KH again" in said.message
        retaking = enrolment(t, lambda s: s["state"] == "enrolling")
        assert retaking["retaken"] == ["KH"] and "0/1 cards" in retaking["line"]  # the QS lying there is not taken
        t.lay([PlacedCard("KH", 620, 270)])
        enrolment(t, lambda s: "1/1 cards" in s["line"])
        finished = service.enrolment("finish")
        assert finished.ok and "enrolled 2 cards" in finished.message and "read back 4 of 4 photos" in finished.message
        # the table's own camera: the deck's glyphs are learnt (two views of each card, two corners each)
        assert "the deck's own glyphs (suits S, H; ranks Q, K)" in enrolment(t, lambda s: True)["glyphs"]
        saved = enrolment(t, lambda s: s["state"] == "enrolled" and "at" in s)  # as journaled
        assert (saved["failed"], saved["retaken"], saved["cards"], saved["wrong"]) == ([], ["KH"], ["QS", "KH"], [])
        assert (tmp_path / "state" / ENROLLED_NAME).is_file()
        assert isinstance(recognizer_model(t), EnrolledModel)


def test_the_dealer_may_keep_an_enrolment_whose_test_deal_failed_and_the_journal_says_what_failed(
        tmp_path: Path) -> None:
    with table(tmp_path) as t:
        slip(t)
        said = t.service.enrolment("keep")
        assert said.ok and "enrolled 2 cards" in said.message
        assert isinstance(recognizer_model(t), EnrolledModel)
    with Journal.open(tmp_path / "state" / JOURNAL_NAME, readonly=True) as journal:
        verdict = (journal.last_enrolment() or ("", {}))[1]
    assert (verdict["failed"], verdict["wrong"], verdict["retaken"]) == (["KH"], [["KH_1.png", "QS"]], [])
