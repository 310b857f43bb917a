"""The physical table of the demo: simulated players' moves made with rendered cards, read by the real
vision (detector and tracker, calibrated as the table is): the cameras report every change made, and now
and then an unreadable card that is not there (which the table holds on and the dealer clears)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.cribbage.game import Phase, new_game
from controller.cribbage.pegging import fits
from controller.simulation.cribbage import Driver, header
from controller.simulation.scene.actions import Lay, Press, Take, TurnUp
from controller.simulation.scene.camera import TableCamera
from controller.simulation.scene.cribbage import CribbagePlayers
from controller.simulation.scene.stage import WIDE_STYLE, DealReader, Stage, table_stage
from controller.simulation.scene.table import MoveError, PhysicalTable
from vision.observations import seat_zone
from vision.synthetic import SceneStyle
from vision.watch import SYNTHETIC_STYLE


def stage(seats: int, open_deal: bool, seed: int = 0) -> Stage:
    table = PhysicalTable.laid_out(SYNTHETIC_STYLE, seats, seed)
    camera = TableCamera(table.calibration(), SYNTHETIC_STYLE, reads=1, votes=1, seed=seed)
    return Stage(table, camera, DealReader(1, 1, seed) if open_deal else None)


@pytest.mark.parametrize("players, open_deal", [(2, True), (3, False)])
def test_a_whole_cribbage_hand_is_seen_as_it_was_played(players: int, open_deal: bool) -> None:
    game = new_game(header(players))
    driver = Driver(game, random.Random(players), shorthand=0.0)
    table = stage(players, open_deal, seed=players)
    players_at_table = CribbagePlayers(driver, table.table, open_deal)
    kinds: Counter[str] = Counter()
    made: Counter[str] = Counter()
    glitches = 0
    while True:
        move = driver.choose()
        assert move is not None
        made[move.event["type"]] += 1
        for action in players_at_table.actions(move):
            sensed = table.perform(action)
            seen, truth = Counter(map(str, sensed.seen)), Counter(map(str, sensed.truth))
            assert not truth - seen, action  # every change made was seen ...
            extra = seen - truth  # ... and at most a passing unreadable card besides (the table holds on it)
            assert all("unknown" in text or "unreadable" in text for text in extra), action
            glitches += bool(extra)
            kinds.update(line["type"] for line in sensed.lines if line["type"] not in ("unknown",) and
                         line.get("card") != "unknown")
        if move.event["type"] == "new_hand":
            break
        game.apply(move.event)
        move.commit()
    assert glitches <= 2
    dealt = players * (6 if players == 2 else 5) + (1 if players == 3 else 0)
    assert kinds["placed"] == 4 * players + 1 + 4 + (dealt if open_deal else 0)  # plays, starter, crib (, reader)
    assert kinds["face_down"] == 4 + 1  # the crib, card by card, then turned up
    assert kinds["removed"] == 4 * players + 1 + 4 + (dealt if open_deal else 0)  # the table cleared
    assert kinds["button"] == made["go"] + 1 + (0 if open_deal else 1)
    assert table.table.empty()


def test_five_card_players_show_the_cards_their_single_series_left_in_hand() -> None:
    """Five-card cribbage's play ends with its first series: the cards still in hand are laid face up beside
    those played, hand by hand in counting order, before the crib is turned up, for the table's engine (which
    knows only the cards it saw) to count them."""
    game = new_game(header(2, five_card=True))
    driver = Driver(game, random.Random(1), shorthand=0.0)
    table = stage(2, open_deal=False, seed=1)
    players_at_table = CribbagePlayers(driver, table.table, open_deal=False)
    while game.phase is not Phase.HAND_OVER:
        move = driver.choose()
        assert move is not None
        for action in players_at_table.actions(move):
            table.perform(action)
        game.apply(move.event)
        move.commit()
    kept = {seat: [str(card) for card in driver.truth.holding[seat]] for seat in range(2)}
    assert kept[0] or kept[1]  # the series ended with cards in hand
    move = driver.choose()
    assert move is not None
    show = [Lay(seat_zone(seat), card) for seat, crib in game.counting_order() if not crib for card in kept[seat]]
    actions = players_at_table.actions(move)
    assert actions[:len(show) + 1] == show + [TurnUp("crib")]
    for action in show:
        assert [str(o) for o in table.perform(action).seen] == [f"{action.card} placed in {action.zone}"]
    for seat in range(2):
        assert sorted(table.table.cards_in(seat_zone(seat), face_up=True)) == sorted(map(str, driver.truth.hand(seat)))
    assert players_at_table.actions(move)[:1] == [TurnUp("crib")]  # each card laid once


def test_a_card_under_glare_is_seen_but_not_read_and_impossible_moves_say_why() -> None:
    table = stage(2, open_deal=False)
    glared = table.perform(Lay("seat-1", "7H", readable=False))
    assert [str(o) for o in glared.seen] == ["unknown placed in seat-1"]
    assert glared.seen == glared.truth
    laid = table.perform(Lay("seat-2", "QS"))
    assert [str(o) for o in laid.seen] == ["QS placed in seat-2"]
    with pytest.raises(MoveError, match="KD does not lie face up in seat-2"):
        table.table.nudge("seat-2", "KD")
    with pytest.raises(MoveError, match="no zone 'seat-3' on this table"):
        table.perform(Lay("seat-3", "KD"))


def test_a_false_go_is_said_only_where_a_table_that_never_read_the_hand_refuses_it() -> None:
    """Five-card, seed 5: Bo said GO at count 26 holding 5C; this engine, knowing his hand, refused it, the
    table (a closed deal) could not and ended the play: the game it judged was not the one played."""
    game = new_game(header(2, five_card=True))
    driver = Driver(game, random.Random(5), shorthand=0.0)
    players_at_table = CribbagePlayers(driver, PhysicalTable.laid_out(SYNTHETIC_STYLE, 2, 5), open_deal=False)
    said, withheld = 0, 0
    while (move := driver.choose()) is not None:
        if game.phase is Phase.PLAY and (seat := game.to_act()) is not None:
            count = game.state.hand.count
            fitting = [card for card in driver.truth.holding[seat] if fits(card, count)]
            if Press("go", seat) in players_at_table.mistake(move, random.Random(0)):  # 0: the GO branch
                assert count <= 21, (count, fitting)  # every card fits: refused whatever was read
                said += 1
            elif fitting:
                withheld += 1  # a GO here would be false, but only a table that knows the hand sees it
        game.apply(move.event)
        move.commit()
    assert said and withheld


def test_a_card_under_glare_stays_seen_when_the_next_card_is_laid_touching_it() -> None:
    """Five-card cribbage, seed 3: Bo's JS lay under glare, 8H went down touching it and the camera lost
    the JS (one region with 8H, which held a read card); the table then never saw Bo's hand whole."""
    table = table_stage(2, open_deal=False, seed=3, reads=5)  # the demo's camera
    for move in [*(Lay("crib", card, face_up=False) for card in ("QS", "KC", "JH", "4C")),
                 Lay("starter", "5H"), Lay("seat-2", "7H"), Lay("seat-1", "JD")]:
        table.perform(move)
    assert [str(o) for o in table.perform(Lay("seat-2", "JS", readable=False)).seen] == ["unknown placed in seat-2"]
    assert [str(o) for o in table.perform(Lay("seat-2", "8H")).seen] == ["8H placed in seat-2"]
    assert [str(o) for o in table.perform(Lay("seat-1", "QS")).seen] == ["QS placed in seat-1"]
    assert [str(o) for o in table.perform(Take("seat-2", "JS")).seen] == ["unknown removed from seat-2"]


@pytest.mark.parametrize("style, seats", [(SYNTHETIC_STYLE, 5), (SYNTHETIC_STYLE, 6), (WIDE_STYLE, 7), (WIDE_STYLE, 8)])
def test_crowded_tables_lay_out_zones_that_do_not_overlap(style: SceneStyle, seats: int) -> None:
    zones = PhysicalTable.laid_out(style, seats).zones
    assert sorted(name for name in zones if name.startswith("seat-")) == [f"seat-{n}" for n in range(1, seats + 1)]
    boxes = list(zones.values())
    for i, a in enumerate(boxes):
        assert 0 <= a.x0 < a.x1 <= style.size[0] and 0 <= a.y0 < a.y1 <= style.size[1]
        for b in boxes[i + 1:]:
            assert min(a.x1, b.x1) <= max(a.x0, b.x0) or min(a.y1, b.y1) <= max(a.y0, b.y0), (a, b)


def test_more_players_than_the_frame_seats_are_refused_saying_how_many_fit() -> None:
    with pytest.raises(ValueError, match=r"the demo table \(960 x 540 px, cards 100 px wide\) seats 1 to 6 players, not 7"):
        PhysicalTable.laid_out(SYNTHETIC_STYLE, 7)
    with pytest.raises(ValueError, match="seats 1 to 8 players, not 9"):
        PhysicalTable.laid_out(WIDE_STYLE, 9)


def test_eight_players_cards_are_each_read_in_their_own_seat() -> None:
    """At the wider table of eight, a card laid before each player, and a whole row of four before one of
    them, is read in that player's zone."""
    table = table_stage(8, open_deal=False, seed=8, reads=1)
    assert table.table.style == WIDE_STYLE
    moves = [Lay(f"seat-{n}", card) for n, card in enumerate(("AS", "7H", "QD", "10C", "KS", "2H", "9D", "JC"), 1)]
    moves += [Lay("seat-5", card) for card in ("3S", "4H", "5D")]
    for move in moves:
        sensed = table.perform(move)
        assert [str(o) for o in sensed.seen] == [f"{move.card} placed in {move.zone}"]
