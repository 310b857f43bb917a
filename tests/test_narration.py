"""narration.describe_effect: a plain line for every kind of effect, naming the players, and for every
effect the simulated tables of the three games produce."""
from __future__ import annotations

import random

import pytest

from controller.engine import Carried, ChipMove, DealOver, Effect, MatchOver, Misdeal, Points, Showdown, \
    ShownHand, TalonReshuffled, Violation, note, violation
from controller.games import new_game
from controller.narration import describe_effect, describe_judged
from controller.simulation import cribbage, femkort, ferbli
from controller.simulation.table import SimulatedTable
from controller.table.inputs import Button, ConsoleEvent
from controller.table.session import TableSession

NAMES = ("Ann", "Bo", "Cy")


@pytest.mark.parametrize("effect, line", [
    (Points(1, 2, "fifteen", cards=("7H", "8S"), count=15), "+2 Bo: fifteen (7H 8S)"),
    (ChipMove(0, -5, "stake"), "-5 chips Ann: stake"),
    (Violation("false_go", 2, {"card": "4D", "count": 25}), "VIOLATION false_go by Cy {'card': '4D', 'count': 25}"),
    (note("trick", trick=2, winner=1, cards=["9H", "KH", "2C"]), "trick 2 to Bo (9H KH 2C)"),
    (note("trump", card="QS", suit="spades"), "trump: QS (spades)"),
    (note("contenders", seats=[0, 2]), "the last trick is played by Ann, Cy"),
    (note("hand_won", hand=3, winner=2), "hand 3 won by Cy"),
    (note("no_winner", hand=1, cause="hand_sizes", sizes=[5, 4, 5]), "hand 1 has no winner: hand sizes [5, 4, 5]"),
    (note("redeal_requested", by=0), "Ann asks for a redeal"),
    (note("redeal_declined", by=1), "Bo declines the redeal"),
    (note("redeal", dealer=2), "agreed: Cy deals again"),
    (note("decider", seats=[0, 1], cause="time_up"), "a decider (time_up) between Ann, Bo"),
    (note("match_won", winner=0, cause="pots"), "match won by Ann (pots)"),
    (Showdown((ShownHand(0, ("AS", "KS", "QS", "7H"), "three-flush 31 in spades"),
               ShownHand(2, ("8C", "9D", "10H", "JS"), "worthless"))),
     "showdown: Ann AS KS QS 7H (three-flush 31 in spades); Cy 8C 9D 10H JS (worthless)"),
    (Carried(8, "all_worthless"), "8 chips carried to the next deal: all_worthless"),
    (TalonReshuffled(3), "the talon ran out: 3 discards reshuffled"),
    (DealOver("uncalled", 1), "deal over (uncalled), won by Bo"),
    (DealOver("void_mus", None), "deal over (void_mus)"),
    (Misdeal(), "misdeal: the same dealer deals again"),
    (MatchOver(None), "match over: no winner"),
    (MatchOver(2), "match over: Cy wins"),
    (MatchOver(1, (1, 0)), "match over: Bo wins (Bo, Ann left: Färbeln needs three)"),
])
def test_every_kind_of_effect_has_a_line(effect: Effect, line: str) -> None:
    assert describe_effect(effect, NAMES).startswith(line)


def test_a_revoke_names_its_trick_and_rule() -> None:
    revoke = violation("revoke", 1, trick=2, hand=1, card="5H", rule="FK-R10")
    assert describe_effect(revoke, NAMES) == ("VIOLATION revoke by Bo "
                                             "{'trick': 2, 'hand': 1, 'card': '5H', 'rule': 'FK-R10'}")


@pytest.mark.parametrize("game", ["cribbage", "femkort", "ferbli"])
def test_every_effect_of_a_simulated_evening_is_described(game: str) -> None:
    rng = random.Random(3)
    tables: dict[str, SimulatedTable] = {
        "cribbage": cribbage.Driver(new_game(cribbage.header(3, 0)), rng, unread=0.3),  # type: ignore[arg-type]
        "femkort": femkort.FemkortTable(new_game(femkort.header(3, 0, redeal_on_request=True, trump=True)),
                                        rng, unread=0.3, misdeal=0.2),  # type: ignore[arg-type]
        "ferbli": ferbli.FerbliTable(new_game(ferbli.header(3, 0)), rng, misdeal=0.05),  # type: ignore[arg-type]
    }
    kinds = set()
    for _, effects in tables[game].events(limit=1500):
        for effect in effects:
            assert describe_effect(effect, NAMES)
            kinds.add(type(effect).__name__)
    assert kinds >= EXPECTED[game], kinds


EXPECTED = {"cribbage": {"Points"}, "femkort": {"ChipMove", "Note"}, "ferbli": {"ChipMove", "DealOver", "Showdown"}}


def test_a_table_sessions_step_is_told_from_its_typed_effects() -> None:
    """What the table session judged is narrated from the engine's own effects, refusals with their reason."""
    session = TableSession(femkort.header(3, 0))
    dealt = session.feed(Button("next", None))
    (judged,) = dealt.judged
    text, effects = describe_judged(judged, NAMES)
    assert text == "deal: Ann ?? ?? ?? ?? ??; Bo ?? ?? ?? ?? ??; Cy ?? ?? ?? ?? ??"
    assert effects == [describe_effect(effect, NAMES) for effect in judged.effects]
    assert all(isinstance(effect, ChipMove) for effect in judged.effects) and len(effects) == 3  # the antes
    assert dealt.events == [{"event": judged.event, "ok": True, "effects": [e.to_json() for e in judged.effects]}]
    refused = session.feed(ConsoleEvent({"type": "time_up"})).judged
    assert describe_judged(refused[0], NAMES) == (f"time_up: REFUSED: {refused[0].error}", [])
    assert not refused[0].ok and refused[0].error
