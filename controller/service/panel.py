"""The web panel inside the service process: the spectator page, the console and the JSON API, served by
waitress (web_panel.serving) on its own thread, over the service's hub (what it shows), the service itself
(the console's way in, judged by the owner thread) and the journal's read side (the games so far, one
read-only SQLite connection per request: a connection belongs to the thread that opened it).

The port is bound when the panel is built, before the table starts, so a port in use is refused at once.
Stopping: the service closes the hub first (open streams end, browsers reconnect later), then `stop()`
ends the worker threads and every connection.
"""
from __future__ import annotations

import threading
from typing import Any

from controller.journal import JOURNAL_NAME
from web_panel import create_app, make_server
from web_panel.archive import JournalArchive
from web_panel.serving import shut_down
from web_panel.settings import PanelSettings

from .loop import TableService

STOP_TIMEOUT = 5.0


class PanelPortError(ValueError):
    """The panel's address cannot be served (a port in use, an address this machine lacks)."""


class PanelServer:
    def __init__(self, service: TableService, host: str, port: int, settings: PanelSettings | None = None) -> None:
        config = service.config
        self.hub = service.hub
        archive = JournalArchive(config.state_directory / JOURNAL_NAME)
        app = create_app(self.hub, service, config, archive=archive, settings=settings)
        try:
            self.server: Any = make_server(app, host, port)
        except OSError as error:
            raise PanelPortError(f"cannot serve the panel on {host}:{port}: {error.strerror}") from None
        self.host = host
        self.port: int = self.server.effective_port
        self._thread = threading.Thread(target=self.server.run, name="panel", daemon=True)

    @classmethod
    def for_service(cls, service: TableService) -> PanelServer:
        """On the address and port of the config's [panel] section."""
        return cls(service, service.config.panel.host, service.config.panel.port)

    def url(self, path: str = "/") -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}{path}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.hub.close()  # already closed by a stopped service; here too when the service never started
        shut_down(self.server, STOP_TIMEOUT)
        if self._thread.is_alive():
            self._thread.join(STOP_TIMEOUT)
