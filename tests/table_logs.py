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
from controller.simulation.cribbage import Driver
from controller.table.log import FORMAT

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


class CribbageLog:
    """A cribbage table's lines for the Driver's moves (closed: nothing read at the deal)."""

    def __init__(self, driver: Driver, deal: str) -> None:
        self.driver, self.deal, self.clock = driver, deal, LineClock()
        self.on_table: list[tuple[str, str]] = []  # (card, zone) face up
        self.crib_down = 0
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
                self.crib_down += 1
                yield self.clock.line("face_down", zone="crib", count=self.crib_down)
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
            self.crib_down += 1
            yield self.clock.line("face_down", zone="crib", count=self.crib_down)

    def _reveal(self, event: Event) -> Iterator[Line]:
        where = zone(event["seat"])
        for card in event["cards"]:
            if (card, where) not in self.on_table:
                yield self._place(card, where)

    def turn_crib(self) -> Iterator[Line]:
        """The dealer turns the crib face up for the show (once a hand)."""
        if self.crib_down:
            self.crib_down = 0
            yield self.clock.line("face_down", zone="crib", count=0)
            for card in self.driver.truth.crib:
                yield self._place(str(card), "crib")

    def _place(self, card: str, where: str) -> Line:
        self.on_table.append((card, where))
        return self.clock.line("placed", card=card, zone=where)

    def _clear(self) -> Iterator[Line]:
        for card, where in self.on_table:
            yield self.clock.line("removed", card=card, zone=where)
        self.on_table = []
        if self.crib_down:
            self.crib_down = 0
            yield self.clock.line("face_down", zone="crib", count=0)


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


SAMPLES = {  # name: (game log maker, players, deal, seed)
    "cribbage-closed": ("cribbage", 2, "closed", 11),
    "cribbage-3-closed": ("cribbage", 3, "closed", 12),
}


def main() -> None:
    """Write tests/data/table-logs/*.jsonl (run from the repository root after changing the writers)."""
    from controller.simulation import cribbage as cribbage_sim
    makers = {"cribbage": (cribbage_log, cribbage_sim.header)}
    for name, (game, players, deal, seed) in SAMPLES.items():
        make_log, make_header = makers[game]
        lines, truth = make_log(make_header(players), deal, seed)
        write_sample(f"tests/data/table-logs/{name}.jsonl", with_incidents(lines, random.Random(seed), 12), truth)


if __name__ == "__main__":
    main()
