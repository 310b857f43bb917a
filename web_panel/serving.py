"""Serving the panel inside the service process: waitress, a production WSGI server, never Flask's own.

Every open stream holds one waitress worker thread for as long as the page is open, so the pool is
sized for the phones of a club evening plus the requests answered meanwhile (bench/panel_streams.py
measures 200 streams). waitress's own default, 4 threads, answers nothing more once 4 pages are open.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from waitress.server import create_server

STREAMS = 200  # phones that may follow the table at once
SPARE_THREADS = 16  # for the page, the state, the console while every stream is open
THREADS = STREAMS + SPARE_THREADS
# A phone holds its stream plus a kept-alive connection or two, which cost a socket but no thread.
CONNECTIONS = 5 * STREAMS
IDLE_TIMEOUT = 60  # seconds before a connection that sent and received nothing is closed (streams send keep-alives)


def make_server(app: Flask, host: str, port: int, *, threads: int = THREADS) -> Any:
    """The server, bound and ready to `run()` (its `effective_port` is the port when 0 was asked)."""
    return create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTIONS,
                         channel_timeout=IDLE_TIMEOUT, asyncore_use_poll=True,  # select() stops at 1024 sockets
                         ident="cardtable")


def shut_down(server: Any, timeout: float = 5.0) -> None:
    """Stop a server from `make_server` as a stopping service does (close the hub first, so open streams
    end): its worker threads finish, then every connection closes, kept-alive ones too, so browsers
    reconnect to whatever serves the port next (waitress's own close() shuts only the listening socket)."""
    server.task_dispatcher.shutdown(timeout=timeout)
    for channel in list(server._map.values()):  # the listener, the open connections and the wake-up pipe
        channel.close()


def serve(app: Flask, host: str, port: int, *, threads: int = THREADS) -> None:
    """Serve until the process stops (the service calls this on its panel thread)."""
    make_server(app, host, port, threads=threads).run()
