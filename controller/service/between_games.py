"""The deck's own work between games, for the service loop: the dealer console's deck check
(controller.service.deck_check) and live enrolment (controller.service.enrolment), and whose the table
camera's cards are meanwhile.

While a check or an enrolment runs, and until its cards are gathered off the table, the camera's card
observations come here (`takes`, `see`), never to the session (nor its journal). A check's verdict and an
enrolment's are journaled (the latest of each, kept across restarts, is the table's); with `[console]
deck_check = "required"` a game is started, or played, only on a deck whose latest check passed
(`deck_refusal`, `game_refusal`). Called on the loop's owner thread only, but for the enrolment's steps
after its start (the console's thread: they take seconds, and the enrolment keeps the camera's cards
from any game meanwhile); its verdict is journaled through `record`, on the owner thread.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.table.session import TableSession
from vision.deck import deck_named
from vision.model import IndexModel
from vision.observations import READER, CardPlaced, CardRemoved, DuplicateCard, FaceDownCount
from web_panel.ports import CHECK_STEPS, ENROLMENT_STEPS, ConsoleAnswer

from .camera import CameraFeed
from .config import ServiceConfig
from .deck_check import DeckCheckError, DeckCheckRun, game_deck
from .enrolment import ENROLLED_NAME, Changed, ConsoleEnrolment

log = logging.getLogger(__name__)

CARD_CHANGES = (CardPlaced, CardRemoved, FaceDownCount, DuplicateCard)  # what a deck check takes from the camera
ReadWith = Callable[[IndexModel], None]  # the service's cameras read with a deck enrolled at the console
Record = Callable[[dict[str, Any]], ConsoleAnswer]  # an enrolment's verdict journaled (by the owner thread)


class BetweenGames:
    def __init__(self, config: ServiceConfig, changed: Changed, read_with: ReadWith, record: Record) -> None:
        """`changed` hears the enrolment's state (from its threads), `read_with` its enrolled deck, `record`
        its verdict (from the console's thread: `record_enrolment` on the owner thread)."""
        self.config = config
        self._changed, self._read_with, self._record = changed, read_with, record
        self.journal: Journal
        self.check: DeckCheckRun | None = None  # the deck check running, or whose deck still lies there
        self.last_check: dict[str, Any] | None = None  # the latest journaled verdict (with its "at")
        self.enrolment: ConsoleEnrolment | None = None  # enrolling, or its last card still on the table
        self.last_enrolment: dict[str, Any] | None = None  # the latest journaled enrolment (with its "at")

    def open(self, journal: Journal) -> None:
        """The journal verdicts go to; its latest deck check is the table's."""
        self.journal = journal
        last = journal.last_deck_check()
        self.last_check = None if last is None else _journaled_check(*last)
        enrolled = journal.last_enrolment()
        self.last_enrolment = None if enrolled is None else _journaled_enrolment(*enrolled)

    def close(self) -> None:
        if self.enrolment is not None:
            self.enrolment.cancel()  # its frame thread ends with the table

    # --- the deck check ----------------------------------------------------------------------------------
    def check_step(self, step: str, deck: str | None, session: TableSession) -> ConsoleAnswer:
        """A deck check's step at the console; a JournalError when its verdict cannot be journaled."""
        run = self.check
        if step not in CHECK_STEPS:
            return ConsoleAnswer(False, f"not a deck check step: {step!r} (one of {', '.join(CHECK_STEPS)})")
        try:
            if step == "start":
                return self._start_check(deck, session)
            if step == "gathered":
                if run is None or run.verdict is None:
                    return ConsoleAnswer(False, "no finished deck check lies on the table")
                self.check = None  # what the camera sees is the game's again
                said = "the checked deck is off the table: the camera's cards are the game's again"
            elif run is None or run.verdict is not None:
                return ConsoleAnswer(False, "no deck check is running: start one (Check deck)")
            elif step == "next":
                run.next_spread()
                said = f"spread {len(run.spreads)} taken: gather it and spread the next cards"
            else:
                said = self._finish_check(run)
        except DeckCheckError as error:
            return ConsoleAnswer(False, str(error))
        return ConsoleAnswer(True, said)

    def _start_check(self, deck: str | None, session: TableSession) -> ConsoleAnswer:
        if self.config.console.deck_check == "off":
            return ConsoleAnswer(False, "refused: this table's config turns the deck check off "
                                        "([console] deck_check = \"off\")")
        previous = self.check
        refusal = (None if previous is not None and previous.verdict is not None else
                   self.between_games("the deck check", session))
        if refusal is not None:
            return ConsoleAnswer(False, f"refused: {refusal}")
        try:
            run = DeckCheckRun.for_deck(deck or game_deck(session.setup.game).name)
        except ValueError as error:
            return ConsoleAnswer(False, f"refused: {error}")
        if previous is not None:  # the deck of the check before still lies there: it is this check's first spread
            run.lying, run.fresh = previous.lying.copy(), +previous.lying
        self.check = run
        return ConsoleAnswer(True, f"checking the {run.deck.name}-card deck: spread it face up, the cards apart, "
                                   "as many as the camera sees; then Next spread, or Finish")

    def _finish_check(self, run: DeckCheckRun) -> str:
        verdict = run.result()
        self.journal.append_deck_check({**verdict.to_json(), "summary": verdict.summary()})
        run.close(verdict)  # only once journaled: a refused write leaves the check running
        last = self.journal.last_deck_check()
        assert last is not None, "a deck check just journaled"
        self.last_check = _journaled_check(*last)
        log.info("deck check: %s", verdict.summary())
        return verdict.summary()

    def check_status(self) -> dict[str, Any] | None:
        """The deck check as the console shows it: the running one, else the latest journaled verdict."""
        run = self.check
        if run is None or run.gathered:
            return self.last_check
        return {**(self.last_check or {}), **run.progress()} if run.verdict else run.progress()

    # --- the enrolment -----------------------------------------------------------------------------------
    def start_enrolment(self, session: TableSession, camera: CameraFeed | None) -> ConsoleAnswer:
        refusal = self.between_games("the enrolment", session)
        if refusal is None and camera is None:
            refusal = "the table has no camera"
        if refusal is not None:
            return ConsoleAnswer(False, f"refused: {refusal}")
        assert camera is not None
        run = ConsoleEnrolment(self.config.state_directory, game_deck(session.setup.game), camera.latest_image,
                               self._changed)
        self.enrolment = run
        run.start()
        return ConsoleAnswer(True, f"enrolling the {run.live.deck.name}-card deck: lay one card at a time face up on "
                                   f"the table, move or turn it for each of its {run.live.progress.views} views")

    def enrolment_step(self, step: str, answer: str | None) -> ConsoleAnswer:
        """The enrolment's `answer`, `finish`, `retake` or `keep` (the console's thread; `start` is the
        owner thread's)."""
        if step not in ENROLMENT_STEPS:
            return ConsoleAnswer(False, f"not an enrolment step: {step!r} (one of {', '.join(ENROLMENT_STEPS)})")
        run = self.enrolment
        if run is None or run.result is not None:
            return ConsoleAnswer(False, "no enrolment is running: start one (Enrol the deck)")
        try:
            if step == "answer":
                return ConsoleAnswer(*run.answer(answer or ""))
            if step == "retake":
                cards = run.retake()
                return ConsoleAnswer(True, f"re-take: lay {', '.join(cards)} again, one at a time, face up; then "
                                           "Finish and enrol")
            back = run.keep() if step == "keep" else run.finish()
        except (ValueError, OSError) as error:
            return ConsoleAnswer(False, f"not enrolled: {error}" if step == "finish" else str(error))
        if run.result is None:
            return ConsoleAnswer(True, f"test deal: {back.summary()}. Re-take the cards that did not read "
                                       f"({', '.join(run.state()['failed'])}), or keep the deck as it is")
        model = run.model
        self._read_with(model)
        log.info("enrolled %d cards into %s at the console: %s", len(model.prototypes.classes), run.target,
                 back.summary())
        recorded = self._record(run.verdict())
        unrecorded = "" if recorded.ok else f" (its verdict is not journaled: {recorded.message})"
        return ConsoleAnswer(True, f"enrolled {len(model.prototypes.classes)} cards; the table reads with this deck "
                                   f"now and after a restart{unrecorded}. Test deal: {back.summary()}")

    def record_enrolment(self, verdict: dict[str, Any]) -> None:
        """Journal an enrolment's verdict (the owner thread); a JournalError when it cannot be."""
        self.journal.append_enrolment(verdict)
        last = self.journal.last_enrolment()
        assert last is not None, "an enrolment just journaled"
        self.last_enrolment = _journaled_enrolment(*last)

    def enrolment_status(self) -> dict[str, Any] | None:
        """The enrolment as the console shows it: the running one, else the latest journaled."""
        run = self.enrolment
        if run is None:
            return self.last_enrolment
        return {**run.state(), **(self.last_enrolment or {})} if run.result else run.state()

    def enrolled(self) -> Path | None:
        """The deck enrolled at the console before, unless the config names one (which wins)."""
        path = self.config.state_directory / ENROLLED_NAME
        if not path.is_file():
            return None
        if self.config.camera.enrolment is not None:
            log.info("the config's [camera] enrolment %s is read with, not the deck enrolled at the console (%s)",
                     self.config.camera.enrolment, path)
        return path

    # --- whose the camera's cards are --------------------------------------------------------------------
    def between_games(self, what: str, session: TableSession) -> str | None:
        """Why `what` (the deck check, the enrolment) cannot start now; None when it may."""
        if session.history and not session.engine.game_over:
            return f"a game is being played; {what} runs between games (end the game first)"
        lying = sum(len(cards) for zone, cards in session.table.faces.items() if zone != READER)
        if lying:
            return f"{lying} card{'s' * (lying != 1)} of the game still lie on the table: gather them first"
        return self.camera_taken()

    def camera_taken(self) -> str | None:
        """Why the table camera's cards are not the game's now (a deck check or an enrolment runs, or its
        cards still lie there); None when they are."""
        run, enrolling = self.check, self.enrolment
        if enrolling is not None:
            return ("an enrolment is running: finish it first" if enrolling.result is None else
                    "the enrolment's last card still lies on the table: take it away first")
        if run is not None and run.verdict is None:
            return "a deck check is running already: finish it first"
        if run is not None:
            return (f"the checked deck still lies on the table ({sum((+run.lying).values())} cards seen): gather it "
                    "first (or say so: The deck is gathered)")
        return None

    def takes(self, item: object) -> bool:
        """A camera observation the deck check takes: its cards, while it runs or its deck lies face up;
        face-down counts only while it runs (the gathered deck's pile is the game's). An enrolment's
        cards are no game's either."""
        run = self.check
        if not isinstance(item, CARD_CHANGES):
            return False
        if self.enrolment is not None:
            return True
        if run is None:
            return False
        return run.verdict is None or not isinstance(item, FaceDownCount)

    def see(self, change: Any) -> bool:
        """A camera observation `takes` took; True when the deck check's progress changed."""
        enrolling = self.enrolment
        if enrolling is not None:
            enrolling.see(change)
            if enrolling.gathered:
                self.enrolment = None
            return False
        run = self.check
        assert run is not None
        if isinstance(change, DuplicateCard) or getattr(change, "zone", None) == READER:
            return False  # a duplicate is two placements already; the deal reader sees no spread
        run.see(change)
        if run.gathered:
            self.check = None
        return True

    def deck_refusal(self, game: str) -> str | None:
        """Why the console may not start `game` now, as the deck check stands; None when it may."""
        return self.camera_taken() or self.game_refusal(game)

    def game_refusal(self, game: str) -> str | None:
        """Why `game` may not be played on the deck as its latest check left it; None when it may (always
        unless the config requires checks)."""
        if self.config.console.deck_check != "required":
            return None
        deck = game_deck(game).name
        last = self.last_check
        if last is None:
            return f"this table plays only on a checked deck: check the {deck}-card deck first (Check deck)"
        if last.get("deck") != deck:
            return (f"the latest deck check was of the {last.get('deck')}-card deck; {game} is played with "
                    f"{deck} cards: check that deck first")
        if not last.get("passed"):
            return f"the latest deck check failed ({last.get('summary')}): check the deck again"
        return None


def _journaled_check(at: str, result: dict[str, Any]) -> dict[str, Any]:
    """A journaled verdict as the status shows it: with the counts a running check's progress has."""
    size = deck_named(result["deck"]).size
    return {**result, "state": "passed" if result.get("passed") else "failed", "at": at, "size": size,
            "read": size - len(result["missing"])}


def _journaled_enrolment(at: str, result: dict[str, Any]) -> dict[str, Any]:
    """A journaled enrolment as the status shows it (its test deal in words, as a running one's)."""
    return {**result, "state": "enrolled", "at": at, "read_back": result["summary"]}
