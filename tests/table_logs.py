"""Table logs from simulated tables: each simulated move becomes the lines a real table would sense.

The simulated table (controller.simulation) holds the true cards and plays legal moves on its own
engine; the writer turns each accepted move into camera, button and console lines, as the players'
hands and the dealer would make them. Feeding those lines through a TableSession must end the game as
the simulator did.
"""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

from controller.cards import Card
from controller.cribbage.game import Phase as CribbagePhase
from controller.engine import Event
from controller.history import Header
from controller.femkort.options import HAND_SIZE
from controller.femkort.state import Phase as FemkortPhase
from controller.simulation.cribbage import Driver
from controller.ferbli.phases import Phase as FerbliPhase
from controller.simulation.femkort import FemkortTable
from controller.simulation.ferbli import FerbliTable
from controller.table.log import FORMAT, parse_table_log
from controller.table.session import TableSession

Line = dict[str, Any]


class LineClock:
    """Line times: a tenth of a second apart, so logs read like a table's."""

    def __init__(self) -> None:
        self.t = 0.0

    def line(self, kind: str, **fields: Any) -> Line:
        self.t = round(self.t + 0.1, 1)
        return {"t": self.t, "type": kind, **fields}


def log_header(header: Header, deal: str) -> Line:
    return {**header.to_json(), "format": FORMAT, "deal": deal}


def zone(seat: int) -> str:
    return f"seat-{seat + 1}"


class TableWriter:
    """What every game's writer shares: the time, the cards face up and the face-down counts per zone."""

    def __init__(self, deal: str) -> None:
        self.deal, self.clock = deal, LineClock()
        self.on_table: list[tuple[str, str]] = []  # (card, zone) face up
        self.down: dict[str, int] = {}

    def _place(self, card: str, where: str) -> Line:
        self.on_table.append((card, where))
        return self.clock.line("placed", card=card, zone=where)

    def _count(self, where: str, step: int) -> Line:
        self.down[where] = self.down.get(where, 0) + step
        return self.clock.line("face_down", zone=where, count=self.down[where])

    def _clear(self) -> Iterator[Line]:
        """The table cleared: every card face up taken away, every face-down pile gathered."""
        for card, where in self.on_table:
            yield self.clock.line("removed", card=card, zone=where)
        self.on_table = []
        for where, count in self.down.items():
            if count:
                yield self.clock.line("face_down", zone=where, count=0)
        self.down = {}


class CribbageLog(TableWriter):
    """A cribbage table's lines for the Driver's moves (closed: nothing read at the deal)."""

    def __init__(self, driver: Driver, deal: str) -> None:
        super().__init__(deal)
        self.driver = driver
        self.dealt = False

    def lines(self, event: Event) -> Iterator[Line]:
        kind, game = event["type"], self.driver.game
        if game.phase in (CribbagePhase.SHOW, CribbagePhase.HAND_OVER):
            yield from self.turn_crib()
        if kind == "deal":
            if not self.dealt:
                self.dealt = True
                yield from self._deal()
        elif kind == "discard":
            for _ in event["cards"]:
                yield self._count("crib", +1)
        elif kind == "starter":
            yield self._place(event["card"], "starter")
        elif kind == "play":
            yield self._place(event["card"], zone(event["seat"]))
        elif kind == "go":
            yield self.clock.line("button", action="go", seat=event["seat"])
        elif kind == "reveal" and not event.get("crib") and game.phase is not CribbagePhase.HAND_OVER:
            yield from self._reveal(event)
        elif kind == "claim":
            yield self.clock.line("console", event=event)
        elif kind == "new_hand":
            yield from self._clear()
            yield self.clock.line("button", action="next", seat=None)
            self.dealt = False

    def _deal(self) -> Iterator[Line]:
        truth, game = self.driver.truth, self.driver.game
        if self.deal == "closed":
            yield self.clock.line("button", action="next", seat=None)
        else:
            dealer = game.state.hand.dealer
            order = [(dealer + 1 + i) % game.players for i in range(game.players)]
            for position in range(game.layout.dealt):
                for seat in order:
                    yield self.clock.line("placed", card=str(truth.holding[seat][position]), zone="reader")
            for card in truth.crib:
                yield self.clock.line("placed", card=str(card), zone="reader")
        for _ in truth.crib:  # the three-hand crib card, dealt face down to the crib
            yield self._count("crib", +1)

    def _reveal(self, event: Event) -> Iterator[Line]:
        where = zone(event["seat"])
        for card in event["cards"]:
            if (card, where) not in self.on_table:
                yield self._place(card, where)

    def turn_crib(self) -> Iterator[Line]:
        """The dealer turns the crib face up for the show (once a hand)."""
        if self.down.get("crib"):
            self.down["crib"] = 0
            yield self.clock.line("face_down", zone="crib", count=0)
            for card in self.driver.truth.crib:
                yield self._place(str(card), "crib")

def cribbage_log(header: Header, deal: str, seed: int) -> tuple[list[Line], dict[str, Any]]:
    """A whole simulated cribbage game as table-log lines, and the simulator's final summary."""
    from controller.games import new_game
    game = new_game(header)
    driver = Driver(game, random.Random(seed), unread=1.0 if deal == "closed" else 0.0)  # type: ignore[arg-type]
    log = CribbageLog(driver, deal)
    lines = [log_header(header, deal)]
    while (move := driver.choose()) is not None:
        lines += log.lines(move.event)  # before the move: the lines depend on the state it is made in
        game.apply(move.event)
        move.commit()
    return lines + list(log.turn_crib()), game.summary()


def cards_of(names: list[str]) -> list[Card]:
    return [Card.parse(name) for name in names]


INCIDENTS = ("unknown", "refused", "camera", "undo", "duplicate")


def with_incidents(lines: list[Line], rng: random.Random, count: int) -> list[Line]:
    """The same game with things going wrong at `count` card plays, each put right as a table would:
    an unreadable card named at the console, a card laid in the wrong seat's zone and taken back, the
    camera lost while a card is laid, a play undone and laid again, a card seen in two zones."""
    header, body = lines[0], lines[1:]
    plays = [i for i, line in enumerate(body) if line["type"] == "placed" and line["zone"].startswith("seat-")]
    chosen = set(rng.sample(plays, min(count, len(plays))))
    players = len(header["players"])
    out = [header]
    for i, line in enumerate(body):
        if i not in chosen:
            out.append(line)
            continue
        card, where = line["card"], line["zone"]
        other = f"seat-{int(where[5:]) % players + 1}"
        kind = INCIDENTS[len(out) % len(INCIDENTS)]
        t = line["t"]
        fix: list[Line] = {
            "unknown": [{"type": "placed", "card": "unknown", "zone": where},
                        {"type": "console", "action": "resolve", "card": card}],
            "refused": [{"type": "placed", "card": card, "zone": other}, {"type": "removed", "card": card, "zone": other},
                        line],
            "camera": [{"type": "camera", "status": "offline"}, {"type": "camera", "status": "online"}, line],
            "undo": [line, {"type": "button", "action": "undo", "seat": None},
                     {"type": "removed", "card": card, "zone": where}, line],
            "duplicate": [line, {"type": "duplicate", "card": card, "zones": [where, other]},
                          {"type": "removed", "card": card, "zone": other}],
        }[kind]
        out += [{**entry, "t": t} for entry in fix]
    return out


class FemkortLog(TableWriter):
    """A Femkort table's lines for the simulated table's moves."""

    def __init__(self, table: FemkortTable, deal: str) -> None:
        super().__init__(deal)
        self.table = table
        self.dealing = False  # the lines of this hand's deal are written

    def lines(self, event: Event) -> Iterator[Line]:
        kind, state = event["type"], self.table.game.state
        first_hand = state.hands_finished == 0 and not state.hand.started
        if kind == "deal" and not self.dealing:
            self.dealing = True
            yield from self._deal(needs_new_hand=state.phase is FemkortPhase.BETWEEN_HANDS and not first_hand)
        elif kind == "new_hand" and not first_hand:
            yield from self._clear()
            yield self.clock.line("button", action="next", seat=None)
        elif kind == "play":
            yield self._place(event["card"], zone(event["seat"]))
            if len(state.hand.trick) + 1 == len(state.hand.order):  # the trick is complete: gathered
                yield from self._clear()
        elif kind == "redeal_request":
            yield self.clock.line("button", action="go", seat=event["seat"])
        elif kind == "redeal_answer":
            yield self.clock.line("button", action="confirm" if event["agree"] else "go", seat=event["seat"])
            self.dealing = False  # an agreed redeal deals again; a refusal plays on (nothing more to write)
        elif kind == "time_up":
            yield self.clock.line("console", event=event)

    def _deal(self, needs_new_hand: bool) -> Iterator[Line]:
        state, hands = self.table.game.state, self.table.hands
        dealer = state.hand.dealer
        if self.deal == "open":
            for position in range(HAND_SIZE):
                for seat in state.hand.seats:
                    yield self.clock.line("placed", card=str(hands[seat][position]), zone="reader")
            if state.options.trump:  # shown face up, then taken back into the hand
                yield self._place(str(hands[dealer][-1]), zone(dealer))
                yield from self._clear()
            return
        if needs_new_hand:
            yield from self._clear()
            yield self.clock.line("button", action="next", seat=None)
        if state.options.trump:
            yield self._place(str(hands[dealer][-1]), zone(dealer))
        yield self.clock.line("button", action="next", seat=None)
        yield from self._clear()

    def hand_started(self) -> None:
        """After a move: a finished hand means the next deal's lines are still to write."""
        if self.table.game.state.phase is FemkortPhase.BETWEEN_HANDS:
            self.dealing = False


def femkort_log(header: Header, deal: str, seed: int) -> tuple[list[Line], dict[str, Any]]:
    """A whole simulated Femkort match as table-log lines, and the simulator's final summary."""
    from controller.games import new_game
    game = new_game(header)
    table = FemkortTable(game, random.Random(seed), unread=0.0, misdeal=0.0)  # type: ignore[arg-type]
    log = FemkortLog(table, deal)
    lines = [log_header(header, deal)]
    while (move := table.choose()) is not None:
        lines += log.lines(move.event)
        game.apply(move.event)
        move.commit()
        log.hand_started()
    return lines, game.summary()


class FerbliLog(TableWriter):
    """A Färbeln table's lines for the simulated table's moves (the betting from the console and the
    answering seats' buttons)."""

    def __init__(self, table: FerbliTable, deal: str) -> None:
        super().__init__(deal)
        self.table = table
        self.face_down_dealt = False  # since the last NEXT

    def lines(self, event: Event) -> Iterator[Line]:
        kind = event["type"]
        if kind == "deal":
            return  # written after the move, once the cards are known (the_deal)
        if kind in ("join", "fold"):
            yield self.clock.line("button", action="confirm" if kind == "join" else "go", seat=event["seat"])
        elif kind == "expose":
            for card in event["cards"]:
                yield self._place(card, zone(event["seat"]))
        elif kind == "buy":
            yield from self._buy(event)
        elif kind == "reveal":
            for card in event["cards"]:
                if (card, zone(event["seat"])) not in self.on_table:
                    yield self._place(card, zone(event["seat"]))
        elif kind in ("new_hand", "misdeal"):
            yield from self._clear()
            yield (self.clock.line("button", action="next", seat=None) if kind == "new_hand"
                   else self.clock.line("console", event=event))
        else:
            yield self.clock.line("console", event=event)

    def after(self, event: Event, before: list[list[Card]], due: list[tuple[int, bool]]) -> Iterator[Line]:
        """Lines only known once the move is made: the cards a deal gave (`due` before it, in order),
        the hands laid face up at the showdown."""
        game, hands = self.table.game, self.table.cards.hands
        if event["type"] == "deal":
            given = {seat: iter(hands[seat][len(before[seat]):]) for seat in range(game.players)}
            for seat, face_up in due[:sum(len(hands[s]) - len(before[s]) for s in range(game.players))]:
                yield from self._deal_card(seat, next(given[seat]), face_up)
            if self.deal == "closed" and self.face_down_dealt and (not game.to_deal or game.to_deal[0][1]):
                yield self.clock.line("button", action="next", seat=None)
                self.face_down_dealt = False
        if game.phase is FerbliPhase.SHOWDOWN or (game.phase is FerbliPhase.HAND_OVER and game.shown):
            for seat in game.live:
                for card in hands[seat]:
                    if (str(card), zone(seat)) not in self.on_table:
                        yield self._place(str(card), zone(seat))

    def _deal_card(self, seat: int, card: Card, face_up: bool) -> Iterator[Line]:
        if self.deal == "open":
            yield self.clock.line("placed", card=str(card), zone="reader")
        if face_up:
            if self.face_down_dealt:  # the face-down cards before it are dealt: NEXT
                yield self.clock.line("button", action="next", seat=None)
                self.face_down_dealt = False
            yield self._place(str(card), zone(seat))
        else:
            self.face_down_dealt = self.deal == "closed"
            yield self._count(zone(seat), +1)

    def _buy(self, event: Event) -> Iterator[Line]:
        where = zone(event["seat"])
        for card in event["discard"]:
            if card is not None and (card, where) in self.on_table:
                self.on_table.remove((card, where))
                yield self.clock.line("removed", card=card, zone=where)
            else:
                yield self._count(where, -1)
            yield self._count("centre", +1)
        if self.deal == "closed":
            event = {key: value for key, value in event.items() if key != "discard"}
        yield self.clock.line("console", event=event)

def ferbli_log(header: Header, deal: str, seed: int) -> tuple[list[Line], dict[str, Any]]:
    """A whole simulated Färbeln match as table-log lines, and the simulator's final summary."""
    from controller.games import new_game
    game = new_game(header)
    table = FerbliTable(game, random.Random(seed), unread=0.0, misdeal=0.0)  # type: ignore[arg-type]
    log = FerbliLog(table, deal)
    lines = [log_header(header, deal)]
    while True:
        before, due = [list(hand) for hand in table.cards.hands], list(game.to_deal)
        move = table.choose()  # a deal's cards leave the talon as its event is written
        if move is None:
            return lines, game.summary()
        lines += log.lines(move.event)
        game.apply(move.event)
        move.commit()
        lines += log.after(move.event, before, due)


def play_log(lines: list[Line]) -> tuple[TableSession, list[dict[str, Any]]]:
    """A table log through a fresh session: the session, and each line's output."""
    header, parsed = parse_table_log(json.dumps(line) for line in lines)
    session = TableSession(header.header, header.deal)
    return session, [session.feed(line.input).to_json(line.number) for line in parsed]


TRUTH_MARK = "# simulator's result: "


def write_sample(path: str, lines: list[Line], truth: dict[str, Any]) -> None:
    """A sample log: the simulator's result as a comment after the header (the session skips it)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(lines[0]) + "\n")
        out.write(TRUTH_MARK + json.dumps({k: truth[k] for k in ("scores", "chips", "winner")}) + "\n")
        for line in lines[1:]:
            out.write(json.dumps(line) + "\n")


def sample_truth(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as stream:
        for text in stream:
            if text.startswith(TRUTH_MARK):
                return json.loads(text[len(TRUTH_MARK):])  # type: ignore[no-any-return]
    raise ValueError(f"{path}: no simulator's result")


SAMPLES = {  # name: (game, players, options, deal, seed)
    "cribbage-closed": ("cribbage", 2, {}, "closed", 11),
    "cribbage-3-closed": ("cribbage", 3, {}, "closed", 12),
    "cribbage-open": ("cribbage", 2, {}, "open", 18),
    "cribbage-4-open": ("cribbage", 4, {}, "open", 19),
    "femkort-closed": ("femkort", 3, {}, "closed", 13),
    "femkort-open": ("femkort", 4, {}, "open", 14),
    "femkort-trump-closed": ("femkort", 3, {"trump": True}, "closed", 15),
    "ferbli-closed": ("ferbli", 3, {}, "closed", 16),
    "ferbli-open": ("ferbli", 4, {}, "open", 17),
}


def main() -> None:
    """Write tests/data/table-logs/*.jsonl (run from the repository root after changing the writers)."""
    from controller.simulation import cribbage as cribbage_sim, femkort as femkort_sim, ferbli as ferbli_sim
    makers = {"cribbage": (cribbage_log, cribbage_sim.header), "femkort": (femkort_log, femkort_sim.header),
              "ferbli": (ferbli_log, ferbli_sim.header)}
    for name, (game, players, options, deal, seed) in SAMPLES.items():
        make_log, make_header = makers[game]
        lines, truth = make_log(make_header(players, **options), deal, seed)  # type: ignore[operator]
        if game != "ferbli" and not options:  # incidents at card plays (Färbeln has none)
            lines = with_incidents(lines, random.Random(seed), 12)
        write_sample(f"tests/data/table-logs/{name}.jsonl", lines, truth)


if __name__ == "__main__":
    main()
