"""The table's publisher: a thread of its own that reads the hub and the journal and sends to the broker.

It never holds the table up: it only reads the hub (`wait_for`, snapshots are immutable) and the journal
(its own read-only connection; SQLite's WAL lets it read beside the table's writes), puts what it reads
in the on-disk outbox, and sends from there through paho's network thread. The broker being down only
makes the outbox grow (within its bound); once it is back everything waiting goes out in order.

    publisher = ClubPublisher(config.club, service.hub, config.state_directory)
    publisher.start()        # before the service runs
    ...
    publisher.stop()         # after it stopped: what waits is sent (briefly), then "offline"

Per hub version at most one state message goes (a burst of versions within `COALESCE` seconds makes
one); the journal's new events and newly finished games go before the state they led to.
"""
from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.journal import JOURNAL_NAME, GameRecord, Journal, JournalError
from controller.service.config import ClubConfig
from controller.service.hub import StateHub

from .connection import KEEPALIVE, make_client
from .messages import event_payload, game_payload, state_payload
from .outbox import OUTBOX_NAME, Outbox
from .topics import table_topic

log = logging.getLogger(__name__)

COALESCE = 0.05  # seconds: the hub's versions within this make one state message
IDLE = 0.5  # seconds between looks at the journal and the outbox when the hub is quiet
WINDOW = 100  # messages sent and not yet acknowledged at most
FLUSH = 2.0  # seconds `stop` waits for the broker to take what waits
ONLINE, OFFLINE = b"online", b"offline"


class ClubError(Exception):
    """The club publisher cannot start (its outbox cannot be made in the state directory)."""


class ClubPublisher:
    def __init__(self, config: ClubConfig, hub: StateHub, state_directory: Path,
                 on_fault: Callable[[str | None], None] | None = None) -> None:
        """`on_fault` hears why the outbox cannot be written (a full disk), and None once it can again (the
        service shows it on the table's status)."""
        if not config.enabled:
            raise ValueError("the [club] section has no host: there is no broker to publish to")
        self.config, self.hub, self._on_fault = config, hub, on_fault
        self.fault: str | None = None  # why the outbox cannot be written now
        self.journal_path = state_directory / JOURNAL_NAME
        self.outbox_path = state_directory / OUTBOX_NAME
        self._topic = lambda leaf: table_topic(config.club, config.table, leaf)
        self._client = make_client(config, f"cardtable-{config.club}-{config.table}")
        self._client.will_set(self._topic("status"), OFFLINE, qos=1, retain=True)
        self._client.max_inflight_messages_set(WINDOW)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._acks: queue.SimpleQueue[tuple[int, int, Any]] = queue.SimpleQueue()  # (connection, mid, reason)
        self._connection = 0  # counts connections made: acks of an earlier one are stale
        self._connected = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self.refused = 0  # messages the broker refused (its ACL): logged and dropped
        self.waiting = 0  # messages in the outbox, as of the thread's last look
        self._outbox: Outbox  # opened by start()

    # --- the owner's side -------------------------------------------------------------------------------
    def start(self) -> None:
        """Open the outbox (ClubError when it cannot be), then connect and publish in the background."""
        try:
            self.outbox_path.parent.mkdir(parents=True, exist_ok=True)  # the service makes it too, later
            self._outbox = Outbox(self.outbox_path, self.config.outbox_limit)
        except (OSError, sqlite3.Error) as error:
            raise ClubError(f"the club's outbox {self.outbox_path} cannot be opened: {error}") from None
        self._client.connect_async(self.config.host, self.config.port, KEEPALIVE)
        self._client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        if not self._thread.is_alive():
            return  # never started, or stopped already
        self._stopping.set()
        self._thread.join()
        self._client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # --- paho's network thread ----------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the club's broker refused the table: %s", reason)
            return
        self._connection += 1
        client.publish(self._topic("status"), ONLINE, qos=1, retain=True)
        self._connected.set()
        log.info("publishing to the club's broker %s:%d", self.config.host, self.config.port)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self._connected.is_set() and not self._stopping.is_set():
            log.warning("lost the club's broker (%s): the outbox keeps what comes meanwhile", reason)
        self._connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._acks.put((self._connection, mid, reason))

    # --- the publisher's thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        outbox = self._outbox  # from here on, only this thread uses it
        sender = _Sender(self._client, outbox)
        journal: Journal | None = None
        version, failing = 0, False
        try:
            while not self._stopping.is_set():
                quiet = COALESCE if self.waiting or failing else IDLE  # acknowledgements to take meanwhile
                snapshot = self.hub.wait_for(version, quiet) if not self.hub.closed else None
                opened = journal is None and (journal := self._open_journal()) is not None
                if snapshot is not None:
                    version = snapshot.version
                collected = True
                if snapshot is not None or opened or failing:  # the journal is written before the hub shows it
                    collected = self._attempt(lambda: self._collect(outbox, journal))
                failing = not (self._attempt(lambda: self._exchange(sender)) and collected)
                if not failing and self.fault is not None:
                    log.info("the club publisher puts again")
                    self._set_fault(None)
                self._stopping.wait(COALESCE if snapshot is not None or self.hub.closed else 0)
            self._flush(outbox, sender, journal)
        finally:
            if journal is not None:
                journal.close()
            outbox.close()

    def _open_journal(self) -> Journal | None:
        if not self.journal_path.exists():
            return None  # the service has not made it yet
        try:
            return Journal.open(self.journal_path, readonly=True)
        except JournalError as error:
            log.warning("the club publisher cannot read the journal yet: %s", error)
            return None

    def _attempt(self, action: Callable[[], None]) -> bool:
        """Run a step on the outbox; False (said once) when it or the journal cannot be used now (a full
        disk): nothing of the step was kept, and it is tried again soon."""
        try:
            action()
        except (sqlite3.Error, JournalError, OSError) as error:
            if self.fault is None:
                log.error("the club publisher cannot put what the table did (%s): it tries again", error)
                self._set_fault(f"the club's outbox cannot be written ({self.outbox_path}: {error}): the hall "
                                "hears nothing new until there is room; the journal keeps everything")
            return False
        return True

    def _set_fault(self, fault: str | None) -> None:
        self.fault = fault
        if self._on_fault is not None:
            self._on_fault(fault)

    def _collect(self, outbox: Outbox, journal: Journal | None) -> None:
        """Put the journal's new events and finished games, then the state (saying how many events the
        outbox ever dropped)."""
        messages: list[tuple[str, bytes, bool]] = []
        if journal is not None:
            marks = self._journal_news(outbox, journal, messages)
            if outbox.put(messages, marks):
                log.warning("the club's outbox is full: dropped its oldest events (%d so far)", outbox.mark("dropped"))
        snapshot = self.hub.snapshot()
        if snapshot.version:  # version 0: the service has shown nothing yet
            outbox.put([(self._topic("state"), state_payload(snapshot, outbox.mark("dropped")), True)])

    def _journal_news(self, outbox: Outbox, journal: Journal, messages: list[tuple[str, bytes, bool]]) -> dict[str, int]:
        records = journal.games()
        if outbox.mark("event_seq", -1) < 0:  # a new outbox: the game being played and those after it
            ended = max((r.id for r in records if r.ended), default=0)
            past = [seq for seq, game, _, _ in journal.events_after(0) if game <= ended]
            return self._journal_news_from(journal, records, max(past, default=0), ended, messages)
        return self._journal_news_from(journal, records, outbox.mark("event_seq"), outbox.mark("game"), messages)

    def _journal_news_from(self, journal: Journal, records: list[GameRecord], last_seq: int, last_ended: int,
                           messages: list[tuple[str, bytes, bool]]) -> dict[str, int]:
        for seq, game, n, event in journal.events_after(last_seq):
            messages.append((self._topic("events"), event_payload(seq, game, n, event), False))
            last_seq = seq
        for record in records:
            if record.ended and record.id > last_ended:
                history = list(journal.history_lines(record.id))
                messages.append((self._topic(f"games/{record.id}"), game_payload(record, history), True))
                last_ended = record.id
        return {"event_seq": last_seq, "game": last_ended}

    def _exchange(self, sender: _Sender) -> None:
        for connection, mid, reason in _drain(self._acks):
            if sender.acknowledged(connection, mid, reason):
                self.refused += 1
        sender.forget_acknowledged()
        if self._connected.is_set():
            sender.send(self._connection)
        self.waiting = sender.outbox.count()

    def _flush(self, outbox: Outbox, sender: _Sender, journal: Journal | None) -> None:
        """The table stops: put the last news, give the broker `FLUSH` seconds for what waits, say offline."""
        self._attempt(lambda: self._collect(outbox, journal))
        deadline = threading.Event()
        timer = threading.Timer(FLUSH, deadline.set)
        timer.start()
        while self._connected.is_set() and outbox.count() and not deadline.wait(COALESCE):
            self._attempt(lambda: self._exchange(sender))
        timer.cancel()
        if outbox.count():
            log.warning("the club's broker has not taken %d messages: they wait in the outbox for the next start",
                        outbox.count())
        if self._connected.is_set():
            self._client.publish(self._topic("status"), OFFLINE, qos=1, retain=True).wait_for_publish(FLUSH)
        self._client.disconnect()


class _Sender:
    """Sends the outbox in order over the current connection, `WINDOW` at a time, and deletes what the broker
    acknowledged. A new connection starts again from the oldest message (paho forgets what was in flight)."""

    def __init__(self, client: mqtt.Client, outbox: Outbox) -> None:
        self.client, self.outbox = client, outbox
        self._connection = 0
        self._in_flight: dict[int, int] = {}  # mid -> outbox id
        self._acknowledged: list[int] = []  # outbox ids the broker has, to delete (a full disk may refuse it)
        self._sent_up_to = 0  # the outbox id sent last on this connection

    def send(self, connection: int) -> None:
        if connection != self._connection:
            self._connection, self._in_flight, self._sent_up_to = connection, {}, 0
        room = WINDOW - len(self._in_flight)
        for message in self.outbox.waiting(self._sent_up_to, room) if room > 0 else []:
            info = self.client.publish(message.topic, message.payload, qos=1, retain=message.retain)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # the connection just went: the next one sends it
            self._in_flight[info.mid] = message.id
            self._sent_up_to = message.id

    def acknowledged(self, connection: int, mid: int, reason: Any) -> bool:
        """An acknowledged message, to delete; True when the broker refused it (it is dropped: it never will)."""
        if connection != self._connection or mid not in self._in_flight:
            return False  # the "online" status, or an ack from a connection since lost
        message_id = self._in_flight.pop(mid)
        refused = bool(reason.is_failure)
        if refused:
            log.error("the club's broker refused a message (%s): is this table's user allowed its topic?", reason)
        self._acknowledged.append(message_id)
        return refused

    def forget_acknowledged(self) -> None:
        """Delete what the broker has from the outbox; kept to delete later when the disk refuses (sent
        again after a restart meanwhile, the hall ignores the repeat)."""
        self.outbox.remove(self._acknowledged)
        self._acknowledged = []


def _drain(acks: queue.SimpleQueue[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    drained = []
    while True:
        try:
            drained.append(acks.get_nowait())
        except queue.Empty:
            return drained
