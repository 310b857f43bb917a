"""The hub's views of the session (the one builder the service and the panel tests use): a hidden card is in
no public view, the deal reader's slot only in the dealer's."""
from __future__ import annotations

import json

from controller.history import Header
from controller.table.log import input_from_json
from controller.table.session import TableSession
import pytest

from controller.service import views as view_builder
from controller.service.views import public_refusal, public_view, views

from table_logs import cribbage_log


def test_an_open_deal_shows_the_dealt_cards_to_the_dealer_only() -> None:
    header = Header("cribbage", ("Ann", "Bo"), 0, {}, None)
    lines, _ = cribbage_log(header, "open", seed=5)
    session = TableSession(header, "open")
    hidden: set[str] = set()  # read by the deal reader, not yet face up on the table
    checked = 0
    body = lines[1:]
    for number, line in enumerate(body):
        _, item = input_from_json(line, 2)
        session.feed(item)
        if line["type"] == "placed" and line["zone"] == "reader":
            hidden.add(line["card"])
        elif line["type"] == "placed":
            hidden.discard(line["card"])  # played, turned or shown: public from now on
            for following in body[number + 1:]:  # a crib counted once pegging ends: its cards laid next
                if following["type"] not in ("placed", "face_down") or following["zone"] == "reader":
                    break
                hidden.discard(following.get("card"))
        elif line["type"] == "button" and line["action"] == "next":
            hidden.clear()  # a new hand: the old one's cards were all shown
        public_document, dealer_document = views(session)
        assert public_document == public_view(session)  # a refusal is judged against what is published
        public = json.dumps(public_document)
        assert not any(f'"{card}"' in public for card in hidden), (line, hidden)
        if hidden:
            dealer = json.dumps(dealer_document)
            assert all(f'"{card}"' in dealer for card in hidden)
            checked += 1
    assert checked > 50


def test_a_publish_reviews_a_finished_cribbage_hand_once_for_both_views(monkeypatch: pytest.MonkeyPatch) -> None:
    header = Header("cribbage", ("Ann", "Bo"), 0, {}, None)
    lines, _ = cribbage_log(header, "closed", seed=5)
    session = TableSession(header, "closed")
    reviews, real = 0, view_builder.hand_review

    def counted(*args: object) -> dict[str, object]:
        nonlocal reviews
        reviews += 1
        return real(*args)  # type: ignore[arg-type]

    reviewed = 0
    for line in lines[1:]:
        session.feed(input_from_json(line, 2)[1])
        monkeypatch.setattr(view_builder, "hand_review", counted)
        before = reviews
        public, dealer = views(session)
        monkeypatch.undo()
        if "review" in public:
            assert reviews == before + 1 and dealer["review"] == public["review"]
            reviewed += 1
        else:
            assert reviews == before and "review" not in dealer
    assert reviewed > 0


def test_the_public_view_says_who_acts_and_what_lies_face_up() -> None:
    header = Header("cribbage", ("Ann", "Bo"), 1, {}, None)
    session = TableSession(header, "closed")
    for line in ({"t": 1, "type": "button", "action": "next", "seat": None},
                 {"t": 2, "type": "face_down", "zone": "crib", "count": 4},
                 {"t": 3, "type": "placed", "card": "QH", "zone": "starter"}):
        session.feed(input_from_json(line, 2)[1])
    view = public_view(session)
    assert (view["game"], view["players"], view["dealer"], view["phase"]) == ("cribbage", ["Ann", "Bo"], 1, "play")
    assert view["to_act"] == 0 and view["face_up"] == {"starter": ["QH"]} and view["face_down"] == {"crib": 4}
    assert view["scores"] == [0, 0] and view["starter"] == "QH"  # the engine's own public view


def test_a_public_refusal_names_only_cards_the_public_view_shows() -> None:
    header = Header("cribbage", ("Ann", "Bo"), 0, {}, None)
    public = public_view(TableSession(header, "closed"))
    public["face_up"] = {"centre": ["QS"]}  # the refused card lies face up until taken back
    refused = {"ok": False, "event": {"type": "reveal", "seat": 1, "cards": ["QS"]},
               "error": "QS is not among seat 1's cards: its unread cards are among 10H 2C AD"}
    said = public_refusal(refused, public)
    assert said == {"type": "reveal", "seat": 1, "error": "QS is not among Bo's cards: its unread cards "
                                                          "are among a hidden card a hidden card a hidden card"}
    go = {"ok": False, "event": {"type": "go", "seat": 0}, "error": "illegal go: seat 0 can lay 5H (count is 21)"}
    assert public_refusal(go, public)["error"] == "illegal go: Ann can lay a hidden card (count is 21)"
    stranger = {"ok": False, "event": {"type": "muggins", "seat": 7}, "error": "no seat 7 at this table (seats 0..1)"}
    assert public_refusal(stranger, public)["error"] == "no seat 7 at this table (seats 0..1)"
    dealt = {"ok": False, "event": {"type": "deal", "seat": 0, "card": "QS"}, "error": "QS was dealt already"}
    assert "QS" not in json.dumps(public_refusal(dealt, public))
