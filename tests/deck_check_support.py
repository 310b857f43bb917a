"""Shared by the deck check tests: the real table service whose camera is a rendered table (the demo's
scene feed), and the dealer spreading a deck on it through the console port."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.service.config import CameraConfig, ConsoleConfig, GameConfig, PegBoardConfig, ServiceConfig
from controller.service.loop import TableService
from controller.service.notify import Notifier
from controller.simulation.scene.camera import TableCamera
from controller.simulation.scene.feed import SceneFeed, ServiceCamera
from controller.simulation.scene.spreads import gathered, spreads
from vision.synthetic import PlacedCard, scene_calibration
from vision.watch import SYNTHETIC_STYLE

READS = 3  # frames recognised per settled spread, a card counted in 2 of them
PILE = gathered(scene_calibration(SYNTHETIC_STYLE).zones)  # the deck squared face down (an empty frame reads slowly)
@dataclass
class Table:
    service: TableService
    camera: ServiceCamera

    def lay(self, scene: list[PlacedCard]) -> None:
        self.camera.show(scene)

    def check(self, cards: list[str], deck: str | None = None) -> str:
        """The dealer checks `cards`, spread after spread, and gathers them; the verdict's words."""
        said = self.service.deck_check("start", deck)
        assert said.ok, said.message
        for number, spread in enumerate(spreads(cards, SYNTHETIC_STYLE)):
            if number:
                assert self.service.deck_check("next").ok
            self.lay(spread)
        finish = self.service.deck_check("finish")
        assert finish.ok, finish.message
        self.lay(PILE)
        return finish.message

    def status(self, public: bool = False) -> dict[str, object]:
        snapshot = self.service.hub.snapshot()
        document = snapshot.public_document() if public else snapshot.dealer_document()
        check = document["status"]["deck_check"]
        assert isinstance(check, dict)
        return check


@contextmanager
def table(tmp_path: Path, mode: str = "offer", game: GameConfig | None = None, pin_hash: str = "") -> Iterator[Table]:
    """The service on its own thread, its camera the rendered table; `pin_hash` for a panel on it."""
    feed = SceneFeed()
    config = ServiceConfig(state_directory=tmp_path / "state",
                           camera=CameraConfig(source="synthetic", fps=1000, reads=READS, votes=2),
                           pegboard=PegBoardConfig(enabled=False),
                           console=ConsoleConfig(pin_hash=pin_hash, deck_check=mode), game=game or GameConfig())
    service = TableService(config, notifier=Notifier(None), source=feed,
                           pin_factory=MockFactory(pin_class=MockPWMPin))
    thread = threading.Thread(target=service.run, name="service")
    thread.start()
    try:
        assert service.hub.wait_for(0, timeout=60) is not None, "the service did not start"
        renderer = TableCamera(scene_calibration(SYNTHETIC_STYLE), SYNTHETIC_STYLE, READS, 2)
        yield Table(service, ServiceCamera(renderer, feed, service.settled, 60))
    finally:
        service.stop()
        feed.close()
        thread.join(30)
        assert not thread.is_alive()
