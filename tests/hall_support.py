"""The hall as `cardtable hall` runs it, in the test's process: its store (SQLite in the test's folder),
board, subscriber (the broker's hall user) and the page served by waitress on a free loopback port."""
from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

from club_broker import Broker
from web_panel.hall import HallBoard, HallStore, HallSubscriber, create_hall_app
from web_panel.serving import make_server, shut_down


class RunningHall:
    def __init__(self, folder: Path, broker: Broker, club: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.store = HallStore(folder / "hall.sqlite3")
        self.board = HallBoard(club, self.store)
        self.subscriber = HallSubscriber(broker.hall_settings(), club, self.board, self.store)
        self.server = make_server(create_hall_app(self.board, self.store), "127.0.0.1", 0, threads=8)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.board.start()
        self.subscriber.start()
        threading.Thread(target=self.server.run, daemon=True).start()

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as reply:
            return bytes(reply.read())

    def board_document(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(self.get("/api/board"))
        return document

    def close(self) -> None:
        self.board.close()
        shut_down(self.server)
        self.subscriber.stop()
        self.store.close()
