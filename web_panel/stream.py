"""The live stream: Server-Sent Events fed by the state hub, one frame per published version.

Each frame is `id: VERSION` plus the public document as `data:`. A client that reconnects with
`Last-Event-ID` gets the versions it missed when the hub still keeps them, else the latest one whole
(a phone that slept re-syncs either way). While nothing changes a comment line goes out every
`keepalive` seconds, so proxies and phones keep the connection and a dead client is noticed. The stream
ends when the hub closes (the service stops): browsers reconnect by themselves.

Any `Feed` will do: the table's StateHub, and the hall's board (web_panel/hall/board.py). Both apps
answer with `latest_response` (the document now) and `stream_response` (the stream).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from flask import Response, request


class Version(Protocol):
    """One published version: its number and its public document, serialized."""

    @property
    def version(self) -> int: ...

    @property
    def public_json(self) -> str: ...


class Feed(Protocol):
    """What a stream reads: controller.service.hub.StateHub's reader side."""

    @property
    def closed(self) -> bool: ...

    def snapshot(self) -> Version: ...

    def wait_for(self, version_after: int, timeout: float) -> Version | None: ...

    def changes_since(self, event_id: int) -> Sequence[Version] | None: ...


KEEPALIVE = b": keep-alive\n\n"
RETRY_MS = 2000  # how soon a browser reconnects after the stream drops


def frame(snapshot: Version) -> bytes:
    return f"id: {snapshot.version}\ndata: {snapshot.public_json}\n\n".encode()


def parse_last_event_id(value: str | None) -> int | None:
    """The version a resuming client last saw; None for a fresh client or an id that is no version."""
    if value is None or not value.strip().isdigit():
        return None
    return int(value)


def first_frames(hub: Feed, last_seen: int | None) -> tuple[list[bytes], int]:
    """What a (re)connecting client is sent at once, and the version it then has."""
    latest = hub.snapshot()
    if last_seen is not None:
        missed = hub.changes_since(last_seen)
        if missed is not None:
            return [frame(s) for s in missed], (missed[-1].version if missed else last_seen)
    return [frame(latest)], latest.version


def events(hub: Feed, last_seen: int | None, keepalive: float) -> Iterator[bytes]:
    frames, version = first_frames(hub, last_seen)
    yield f"retry: {RETRY_MS}\n\n".encode() + b"".join(frames)
    while not hub.closed:
        snapshot = hub.wait_for(version, keepalive)
        if snapshot is None:
            if not hub.closed:
                yield KEEPALIVE
            continue
        version = snapshot.version
        yield frame(snapshot)


def latest_response(feed: Feed) -> Response:
    """The feed's latest public document as JSON, never cached (it is stale by the next publish)."""
    return Response(feed.snapshot().public_json, mimetype="application/json",
                    headers={"Cache-Control": "no-store"})


def stream_response(feed: Feed, keepalive: float) -> Response:
    """The feed as Server-Sent Events for this request, resuming after its Last-Event-ID."""
    last_seen = parse_last_event_id(request.headers.get("Last-Event-ID"))
    # X-Accel-Buffering: a proxy in front (nginx) must pass each frame on as it comes
    return Response(events(feed, last_seen, keepalive), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
