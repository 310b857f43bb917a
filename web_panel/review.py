"""After the hand (cribbage): each player's discard against the best keep, and the points a muggins
claim left on the table.

Pure: it reads one finished hand's hand-history events (the deal, the discards, the starter, the
claims). The keeps are ranked by `controller.cribbage.advice.advise` (the expected points of the four
kept over every starter, plus the crib's for the dealer, minus it for the pone), so it needs a
two-player deal of six cards, every one read. A hand's cards are hidden while it is played: show this
only once the hand is over.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.cards import Card
from controller.cribbage.advice import DEAL, advise
from controller.cribbage.scoring import score_show

Event = dict[str, Any]


def _dealt(events: Sequence[Event], players: int) -> list[list[Card | None]]:
    hands: list[list[Card | None]] = [[] for _ in range(players)]
    for event in events:
        if event.get("type") != "deal":
            continue
        if "hands" in event:  # the whole deal at once
            for seat, cards in enumerate(event["hands"]):
                hands[seat] += [None if c is None else Card.parse(c) for c in cards]
        elif "seat" in event:
            card = event.get("card")
            hands[event["seat"]].append(None if card is None else Card.parse(card))
    return hands


def _discards(events: Sequence[Event], players: int) -> list[list[Card | None]]:
    discards: list[list[Card | None]] = [[] for _ in range(players)]
    for event in events:
        if event.get("type") == "discard":
            discards[event["seat"]] = [None if c is None else Card.parse(c) for c in event["cards"]]
    return discards


def discard_review(dealt: Sequence[Card | None], discard: Sequence[Card | None], dealer: bool) -> dict[str, Any]:
    """One player's keep against the best: its net expected points, the best keep's, and its rank of 15."""
    if len(dealt) != DEAL or None in dealt or None in discard:
        return {"reviewed": False, "why": "not every card of this deal was read"}
    six = [card for card in dealt if card is not None]
    ranked = advise(six, dealer)
    thrown = set(discard)
    rank = next(i for i, advice in enumerate(ranked) if set(advice.discard) == thrown)
    chosen, best = ranked[rank], ranked[0]
    return {"reviewed": True, "kept": [str(c) for c in chosen.keep], "discard": [str(c) for c in chosen.discard],
            "net": round(chosen.net, 2), "rank": rank + 1, "best": {**best.to_json(), "net": round(best.net, 2)},
            "cost": round(best.net - chosen.net, 2)}


def missed_points(events: Sequence[Event], players: int) -> list[dict[str, Any]]:
    """Every muggins claim below its count's total: who claimed, how much, and what was there."""
    dealt, discards = _dealt(events, players), _discards(events, players)
    starter = next((Card.parse(e["card"]) for e in events if e.get("type") == "starter" and e.get("card")), None)
    crib = [card for thrown in discards for card in thrown] + [
        Card.parse(e["card"]) for e in events if e.get("type") == "deal" and e.get("to") == "crib" and e.get("card")]
    missed = []
    for event in events:
        if event.get("type") != "claim" or starter is None:
            continue
        seat, is_crib = event["seat"], bool(event.get("crib"))
        cards = crib if is_crib else [c for c in dealt[seat] if c not in discards[seat]]
        if None in cards:
            continue
        total = score_show([c for c in cards if c is not None], starter, crib=is_crib).total
        if event["points"] < total:
            missed.append({"seat": seat, "crib": is_crib, "claimed": event["points"], "total": total,
                           "missed": total - event["points"]})
    return missed


def hand_review(events: Sequence[Event], players: int, dealer: int, muggins: bool) -> dict[str, Any]:
    """The review of one finished cribbage hand, JSON-ready (the page shows it as `table.review`)."""
    if players != 2:
        discards: list[dict[str, Any]] = [{"seat": seat, "reviewed": False, "why": "keeps are ranked for two players"}
                                          for seat in range(players)]
    else:
        dealt, thrown = _dealt(events, players), _discards(events, players)
        discards = [{"seat": seat, **discard_review(dealt[seat], thrown[seat], seat == dealer)}
                    for seat in range(players)]
    return {"discards": discards, "missed": missed_points(events, players) if muggins else []}
