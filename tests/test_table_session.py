"""The table session, input by input: holds and what ends them, refusals, UNDO, the outputs, game over."""
from __future__ import annotations

import json

from controller.cards import Card
from controller.hardware.buzzer import Sound
from controller.hardware.status_light import LightStatus
from controller.history import Header
from controller.pegboard.state import Mode
from controller.simulation import cribbage as cribbage_sim
from controller.table.log import parse_table_log
from controller.table.inputs import Button, ConsoleEvent, ConsoleUndo, Relay, Resolve
from controller.table.session import TableSession
from vision.observations import CameraStatus, CardPlaced, CardRemoved, DuplicateCard, FaceDownCount, UnknownCards

from table_logs import cribbage_log

NEXT = Button("next", None)


def cribbage(**options) -> TableSession:
    """Two-hand cribbage, seat 0 deals, dealt closed and discarded: waiting for the cut."""
    session = TableSession(Header("cribbage", ("Ann", "Bo"), 0, options, None))
    session.feed(NEXT)
    for count in range(1, 5):
        session.feed(FaceDownCount("crib", count))
    return session


def accepted(step) -> list[dict]:
    return [entry["event"] for entry in step.events if entry["ok"]]


def test_the_crib_complete_makes_the_discards_from_the_dealers_left():
    session = TableSession(Header("cribbage", ("Ann", "Bo", "Cy"), 2, {}, None))
    assert accepted(session.feed(NEXT)) == [{"type": "deal", "hands": [[None] * 5] * 3},
                                            {"type": "deal", "to": "crib", "card": None}]
    assert accepted(session.feed(FaceDownCount("crib", 3))) == []
    step = session.feed(FaceDownCount("crib", 4))
    assert accepted(step) == [{"type": "discard", "seat": seat, "cards": [None]} for seat in (0, 1, 2)]


def test_a_refused_card_holds_until_taken_back_and_what_came_meanwhile_is_judged_then():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    step = session.feed(CardPlaced("KD", "seat-1"))  # the dealer leads: out of turn
    assert step.events[0]["ok"] is False and "not your turn" in step.events[0]["error"]
    assert step.hold is not None and step.hold.to_json() == {
        "reason": "refused", "seat": 0, "card": "KD", "zone": "seat-1", "error": step.events[0]["error"]}
    assert step.outputs.sounds == (Sound.ILLEGAL,) and step.outputs.light is LightStatus.ILLEGAL
    assert step.outputs.board is not None and step.outputs.board.mode is Mode.ILLEGAL
    waiting = session.feed(CardPlaced("5C", "seat-2"))  # pone's lead, laid while the table holds
    assert waiting.events == [] and waiting.hold is not None
    assert session.feed(Button("go", 1)).events == []
    back = session.feed(CardRemoved("KD", "seat-1"))
    assert accepted(back) == [{"type": "play", "seat": 1, "card": "5C"}]  # the go waits no more: refused
    assert back.events[-1]["ok"] is False and back.hold is None
    assert back.outputs.light is LightStatus.ILLEGAL


def test_a_card_laid_and_taken_away_during_a_hold_never_happened():
    session = cribbage()
    session.feed(CameraStatus("offline"))
    session.feed(CardPlaced("9D", "starter"))
    session.feed(CardRemoved("9D", "starter"))
    session.feed(CardPlaced("4S", "starter"))
    step = session.feed(CameraStatus("online"))
    assert accepted(step) == [{"type": "starter", "card": "4S"}]


def test_a_refused_button_press_sounds_and_holds_nothing():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    before = list(session.history)
    step = session.feed(Button("confirm", 1))
    assert (step.events, step.hold, session.history) == ([], None, before)
    assert step.outputs.sounds == (Sound.ILLEGAL,) and step.outputs.notice == "CONFIRM means nothing now"
    go = session.feed(Button("go", 1))  # a go at count 0: the engine refuses it, nothing to take back
    assert go.events[0]["ok"] is False and go.hold is None


def test_a_console_entry_the_engine_refuses_changes_nothing_and_holds_nothing():
    session = cribbage(muggins=True)
    step = session.feed(ConsoleEvent({"type": "claim", "seat": 1, "points": 4}))
    assert step.events[0]["ok"] is False and "muggins" not in step.events[0]["error"]
    assert step.hold is None and len(session.history) == 3


def test_an_unreadable_card_is_resolved_at_the_console_with_the_cards_still_possible():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    session.feed(CardPlaced("5C", "seat-2"))
    step = session.feed(CardPlaced("unknown", "seat-1"))
    assert step.hold is not None and step.hold.reason == "unknown" and step.outputs.light is LightStatus.WAITING
    possible = session.dealer_hold()["possible"]  # type: ignore[index]
    assert len(possible) == 50 and "9D" not in possible and "5C" not in possible
    resolved = session.feed(Resolve(Card.parse("10H")))
    assert accepted(resolved) == [{"type": "play", "seat": 0, "card": "10H"}] and resolved.hold is None
    assert session.table.faces["seat-1"] == ["10H"]


def test_an_unreadable_card_laid_again_and_read_ends_the_hold():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    assert session.feed(UnknownCards("seat-2", 1)).hold is not None
    step = session.feed(CardPlaced("5C", "seat-2"))
    assert accepted(step) == [{"type": "play", "seat": 1, "card": "5C"}] and step.hold is None


def test_relay_asks_for_the_card_again():
    session = cribbage()
    session.feed(CardPlaced("unknown", "starter"))
    assert session.feed(Relay()).hold is None and session.table.faces["starter"] == []
    assert accepted(session.feed(CardPlaced("9D", "starter"))) == [{"type": "starter", "card": "9D"}]


def test_a_duplicate_holds_until_one_copy_is_gone():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    step = session.feed(DuplicateCard("9D", ("starter", "seat-2")))
    assert step.hold is not None and step.hold.to_json()["zones"] == ["starter", "seat-2"]
    assert session.feed(CardRemoved("9D", "seat-1")).hold is not None
    assert session.feed(CardRemoved("9D", "seat-2")).hold is None


def test_undo_takes_back_the_last_event_and_the_history_leaves_it_out():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    session.feed(CardPlaced("5C", "seat-2"))
    step = session.feed(ConsoleUndo())
    assert step.events == [] and session.history[-1] == {"type": "starter", "card": "9D"}
    assert session.engine.to_act() == 1  # pone still to lead
    session.feed(CardRemoved("5C", "seat-2"))  # taken back: no event
    assert accepted(session.feed(CardPlaced("5H", "seat-2"))) == [{"type": "play", "seat": 1, "card": "5H"}]
    held = session.feed(Button("undo", None))  # undo works while nothing is held
    assert session.history[-1] == {"type": "starter", "card": "9D"} and held.hold is None


def test_while_the_camera_is_offline_undo_waits_for_the_hold():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    assert session.feed(CameraStatus("offline")).outputs.light is LightStatus.OFFLINE
    step = session.feed(ConsoleUndo())
    assert len(session.history) == 4 and step.outputs.notice.startswith("resolve the hold first")


def twenty_nine() -> list:
    """Pone's 5H 5S 5D JC with the 5C cut, pegged out against the dealer's AH 2H 3H 4H."""
    plays = [("5H", 2), ("AH", 1), ("5S", 2), ("2H", 1), ("5D", 2), ("3H", 1), ("JC", 2), ("4H", 1)]
    return [CardPlaced("5C", "starter")] + [CardPlaced(card, f"seat-{zone}") for card, zone in plays]


def test_a_29_hand_gets_its_fanfare_and_the_board_shows_the_engines_pegs():
    session = cribbage()
    steps = [session.feed(item) for item in twenty_nine()]
    assert Sound.TWENTY_NINE in steps[-1].outputs.sounds
    pegs = session.engine.summary()["pegs"]
    board = steps[-1].outputs.board
    assert board is not None and [(t.front, t.back) for t in board.tracks] == [(p["front"], p["back"]) for p in pegs]


def test_once_the_game_is_won_nothing_more_is_judged_and_next_starts_the_next_game():
    lines, _ = cribbage_log(cribbage_sim.header(2), "closed", 3)
    header, parsed = parse_table_log(json.dumps(line) for line in lines)
    session = TableSession(header.header, header.deal)
    steps = [session.feed(line.input) for line in parsed]
    won = session.engine.summary()
    assert won["winner"] is not None
    winning = next(step for step in steps if Sound.WIN in step.outputs.sounds)
    board = winning.outputs.board  # the engine's pegs, capped at the target, with the win or the skunk
    assert board is not None and board.mode is (Mode.WIN if won["skunk"] == "none" else Mode.SKUNK)
    assert board.mode_track == won["winner"] and board.tracks[won["winner"]].front == 121
    for item in (CardPlaced("QS", "seat-1"), Button("go", 0), UnknownCards("seat-2", 1), CameraStatus("offline")):
        step = session.feed(item)
        assert (step.events, step.hold) == ([], None)
    assert session.engine.summary() == won
    step = session.feed(NEXT)
    assert len(session.games) == 2 and session.setup.dealer == 1 and session.history == []
    assert session.engine.summary()["scores"] == [0, 0]
    assert accepted(session.feed(NEXT)) == [{"type": "deal", "hands": [[None] * 6] * 2}]


def test_a_card_only_the_deal_reader_saw_is_named_in_no_public_output():
    session = TableSession(Header("cribbage", ("Ann", "Bo"), 0, {}, None), deal="open")
    dealt = session.feed(CardPlaced("QS", "reader"))
    assert accepted(dealt) == [{"type": "deal", "seat": 1, "card": "QS"}] and dealt.outputs.notice is None
    refused = session.feed(CardPlaced("QS", "reader"))  # read twice: a misread, or a second deck
    assert refused.events[0]["ok"] is False and "QS" in refused.events[0]["error"]  # the console's
    assert refused.hold is not None and refused.hold.card == "QS"
    assert "QS" not in (refused.outputs.notice or "") and "QS" not in refused.hold.describe()
    assert session.feed(CardRemoved("QS", "reader")).hold is None
    undone = session.feed(ConsoleUndo())
    assert "QS" not in (undone.outputs.notice or "") and session.history == []


def test_a_card_dealt_over_the_reader_unread_holds_the_deal_until_it_is_named():
    """Open deal: a card passes the reader unread and goes on to its player. Every card after it goes to the
    seat it makes due, so the deal waits (it used to carry on: the next card went to that card's seat, a
    hand came out short and a Femkort pot went unwon); named at the console, it is dealt, then the rest."""
    session = TableSession(Header("cribbage", ("Ann", "Bo"), 0, {}, None), deal="open")
    assert accepted(session.feed(CardPlaced("QS", "reader"))) == [{"type": "deal", "seat": 1, "card": "QS"}]
    session.feed(CardRemoved("QS", "reader"))
    unread = session.feed(CardPlaced("unknown", "reader"))
    assert unread.hold is not None and unread.hold.reason == "unknown" and unread.hold.zone == "reader"
    assert session.feed(CardRemoved("unknown", "reader")).hold is not None  # dealt on, still unread
    waiting = session.feed(CardPlaced("7H", "reader"))  # the next card, dealt meanwhile
    assert waiting.events == [] and waiting.hold is not None
    named = session.feed(Resolve(Card.parse("2C")))
    assert accepted(named) == [{"type": "deal", "seat": 0, "card": "2C"}, {"type": "deal", "seat": 1, "card": "7H"}]
    assert named.hold is None and session.table.faces.get("reader") == ["7H"]


def test_a_ferbli_deal_at_the_table():
    """Dealing begun closes the mus; buttons answer; the exposed cards, the buy's discard, the upcard and
    the showdown come from the zones."""
    session = TableSession(Header("ferbli", ("Ann", "Bo", "Cy"), 0, {"min": 1, "max": 10}, (50, 50, 50)))

    def events(*items) -> list[dict]:
        return [event for item in items for event in accepted(session.feed(item))]

    assert events(FaceDownCount("seat-2", 1)) == [{"type": "deal", "seat": 1, "card": None}]
    late_mus = session.feed(ConsoleEvent({"type": "mus", "seat": 1, "amount": 2}))
    assert late_mus.events[0]["ok"] is False and late_mus.hold is None
    assert len(events(NEXT)) == 5  # the rest of the first round, unread
    events(ConsoleEvent({"type": "stake", "seat": 1, "amount": 2}), NEXT)
    assert events(Button("go", 1)) == []  # not seat 1's answer: a refused press
    assert events(Button("confirm", 2), Button("go", 0)) == [{"type": "join", "seat": 2}, {"type": "fold", "seat": 0}]
    events(ConsoleEvent({"type": "expose_demand", "seat": 2}))
    assert events(CardPlaced("AS", "seat-2"), CardPlaced("KS", "seat-2")) == [
        {"type": "expose", "seat": 1, "cards": ["AS", "KS"]}]
    events(ConsoleEvent({"type": "raise", "seat": 2, "amount": 3}), Button("confirm", 1))
    assert session.engine.to_act() == 1  # the first buyer: forehand, who lays the KS away
    bought = events(CardRemoved("KS", "seat-2"), FaceDownCount("centre", 1), FaceDownCount("centre", 2),
                    ConsoleEvent({"type": "buy", "seat": 1, "option": "replace"}), NEXT)
    assert bought == [{"type": "buy", "seat": 1, "option": "replace", "discard": ["KS", None]},
                      {"type": "deal", "seat": 1, "card": None}, {"type": "deal", "seat": 1, "card": None}]
    upcard = events(FaceDownCount("centre", 3), ConsoleEvent({"type": "buy", "seat": 2, "option": "upcard"}),
                    CardPlaced("7H", "deck"), CardPlaced("7H", "seat-3"))
    assert upcard == [{"type": "buy", "seat": 2, "option": "upcard", "discard": [None]},
                      {"type": "deal", "seat": 2, "card": "7H", "up": True}]
    events(ConsoleEvent({"type": "show", "seat": session.engine.to_act()}))
    shown = events(*(CardPlaced(card, "seat-2") for card in ("QS", "JS", "10S")),
                   *(CardPlaced(card, "seat-3") for card in ("7D", "7C", "8H")))
    assert shown == [{"type": "reveal", "seat": 1, "cards": ["AS", "QS", "JS", "10S"]},
                     {"type": "reveal", "seat": 2, "cards": ["7H", "7D", "7C", "8H"]}]
    assert session.engine.hand_over and session.engine.summary()["hand_winner"] in (1, 2)
    assert events(NEXT) == [{"type": "new_hand"}]


def test_femkort_trump_shown_before_next_redeal_by_buttons_and_a_misdeal_at_the_console():
    options = {"trump": True, "redeal_on_request": True}
    session = TableSession(Header("femkort", ("Ann", "Bo", "Cy"), 0, options, (20, 20, 20)))
    assert accepted(session.feed(CardPlaced("9H", "seat-1"))) == []  # the dealer shows his fifth card
    deal = accepted(session.feed(NEXT))  # the match's first hand: one NEXT deals
    assert deal == [{"type": "deal", "hands": [[None] * 4 + ["9H"], [None] * 5, [None] * 5]}]
    assert accepted(session.feed(CardRemoved("9H", "seat-1"))) == []  # taken back into his hand
    assert accepted(session.feed(Button("go", 2))) == [{"type": "redeal_request", "seat": 2}]
    answers = [accepted(session.feed(Button(action, seat)))[0] for action, seat in (("confirm", 0), ("confirm", 1))]
    assert answers == [{"type": "redeal_answer", "seat": 0, "agree": True},
                       {"type": "redeal_answer", "seat": 1, "agree": True}]
    session.feed(CardPlaced("KC", "seat-1"))  # the redeal's trump
    assert accepted(session.feed(NEXT))[0]["hands"][0][-1] == "KC"  # a redeal needs one NEXT too
    session.feed(CardRemoved("KC", "seat-1"))
    step = session.feed(CardPlaced("2C", "seat-2"))  # forehand leads
    assert accepted(step) == [{"type": "play", "seat": 1, "card": "2C"}]
    short = ConsoleEvent({"type": "deal", "hands": [[None] * 5, [None] * 4, [None] * 5]})
    assert session.feed(short).events[0]["ok"] is False  # a misdeal is entered in place of NEXT, not mid-hand


def test_in_an_open_deal_the_held_seats_read_cards_come_first_among_the_possible():
    session = TableSession(Header("femkort", ("Ann", "Bo", "Cy"), 0, {}, (20, 20, 20)), deal="open")
    cards = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "2S", "3S"]
    for card in cards:
        session.feed(CardPlaced(card, "reader"))
    bo = [card for position, card in enumerate(cards) if position % 3 == 0]  # forehand, seat 1, first
    assert session.feed(CardPlaced("2H", "seat-2")).hold is None  # forehand leads his 2H
    assert session.feed(CardPlaced("unknown", "seat-3")).hold is not None
    possible = session.dealer_hold()["possible"]  # type: ignore[index]
    cy = [card for position, card in enumerate(cards) if position % 3 == 1]
    assert possible[:5] == cy and "2H" not in possible and len(possible) == 52 - 15 + 5
    assert not set(bo) & set(possible[5:])


def test_a_console_entry_with_a_field_the_game_does_not_know_is_refused_as_replay_refuses_it():
    session = cribbage(muggins=True)
    step = session.feed(ConsoleEvent({"type": "starter", "card": "9D", "face": "up"}))
    assert step.events[0]["ok"] is False and "face" in step.events[0]["error"] and step.hold is None
    assert len(session.history) == 3


def test_a_crib_counted_is_shown_not_judged_but_a_card_face_up_in_the_crib_before_the_show_holds():
    session = cribbage()
    assert session.feed(CardPlaced("2C", "crib")).hold.reason == "misplaced"  # type: ignore[union-attr]
    session.feed(CardRemoved("2C", "crib"))
    for item in twenty_nine():
        session.feed(item)
    session.feed(FaceDownCount("crib", 0))
    turned = [session.feed(CardPlaced(card, "crib")) for card in ("6D", "7D", "8D", "KC")]
    assert accepted(turned[-1])[0] == {"type": "reveal", "seat": 0, "cards": ["6D", "7D", "8D", "KC"], "crib": True}
    assert session.engine.hand_over
    session.feed(CardRemoved("KC", "crib"))
    again = session.feed(CardPlaced("KC", "crib"))  # laid again to show it: the crib is counted
    assert (again.events, again.hold) == ([], None)


def test_a_card_named_at_the_console_leaves_the_picture_when_the_camera_sees_it_go():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    session.feed(CardPlaced("5C", "seat-2"))
    session.feed(CardPlaced("unknown", "seat-1"))
    session.feed(Resolve(Card.parse("10H")))
    assert session.table.faces["seat-1"] == ["10H"]
    session.feed(CardRemoved("unknown", "seat-1"))  # the camera never read it: it goes as it came
    assert session.table.faces["seat-1"] == [] and session.table.named["seat-1"] == []


def test_a_named_card_the_table_refused_is_taken_back_though_the_camera_never_read_it():
    session = cribbage()
    session.feed(CardPlaced("9D", "starter"))
    session.feed(CardPlaced("unknown", "seat-1"))  # the dealer leads: out of turn, once it is named
    named = session.feed(Resolve(Card.parse("KD")))
    assert named.hold is not None and named.hold.reason == "refused" and named.hold.card == "KD"
    back = session.feed(CardRemoved("unknown", "seat-1"))
    assert back.hold is None and session.table.faces["seat-1"] == []
    assert accepted(session.feed(CardPlaced("5C", "seat-2"))) == [{"type": "play", "seat": 1, "card": "5C"}]
