"""The hall's subscriber: the hall's broker user reads `cardtable/<club>/#` (QoS 1, a session the broker
keeps, so what comes while the hall or the broker restarts is delivered after) and hands each message
to the board, and each finished game to the store first.

A message that is not what its topic says (not JSON, a finished game without its history, an event
without its sequence number) is refused: logged with its topic and why, counted on the board, and
dropped; it never stops the hall or touches what is kept.

Messages are acknowledged by hand, once handled: a finished game only once the store has it. When the
store cannot write (a full disk), the game is held, unacknowledged (so the broker keeps it, and sends it
again after a reconnection), the board says why, and the store is tried again every `RETRY` seconds; the
games held are acknowledged as they are kept. Everything else goes on meanwhile: the board stays live.
"""
from __future__ import annotations

import json
import logging
import threading
from typing import Any

import paho.mqtt.client as mqtt

from controller.club.connection import BrokerSettings, connect_reader, make_client
from controller.club.topics import club_filter, parse_topic

from .board import HallBoard
from .store import GameError, HallStore, StoreError

log = logging.getLogger(__name__)

RETRY = 2.0  # seconds between tries of a store that could not write


class MessageError(ValueError):
    pass


class HallSubscriber:
    def __init__(self, settings: BrokerSettings, club: str, board: HallBoard, store: HallStore) -> None:
        self.settings, self.club, self.board, self.store = settings, club, board, store
        self._client = make_client(settings, f"cardtable-hall-{club}")
        self._client.manual_ack_set(True)  # a finished game is acknowledged once kept, not once read
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self.subscribed = False
        self._held: list[mqtt.MQTTMessage] = []  # finished games the store could not keep yet, in order
        self._held_lock = threading.Lock()  # paho's thread holds, the retrying thread keeps
        self._stopping = threading.Event()
        self._retrying = threading.Thread(target=self._retry, name="hall-store-retry", daemon=True)

    def start(self) -> None:
        connect_reader(self._client, self.settings)
        self._client.loop_start()
        self._retrying.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._retrying.is_alive():
            self._retrying.join()
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the club's broker refused the hall: %s", reason)
            return
        with self._held_lock:  # the broker sends what was not acknowledged again, under new ids
            self._held.clear()
        client.subscribe(club_filter(self.club), qos=1)
        self.subscribed = True
        log.info("the hall follows %s on %s:%d", club_filter(self.club), self.settings.host, self.settings.port)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._held_lock:
            held = bool(self._held) and "/games/" in message.topic  # after those held: kept in order
            if held:
                self._held.append(message)
        if not held:
            if self._kept(message):
                client.ack(message.mid, message.qos)
            else:
                with self._held_lock:
                    self._held.append(message)

    def _kept(self, message: mqtt.MQTTMessage) -> bool:
        """True when the message is done with (taken, or refused for good); False when the store could not
        write it (the board says why until a game is kept again)."""
        try:
            self.take(message.topic, bytes(message.payload))
        except (MessageError, GameError) as error:
            log.warning("refused a message on %s: %s", message.topic, error)
            self.board.add_refusal()
        except StoreError as error:
            if self.board.fault is None:
                log.error("the hall cannot keep finished games (%s): they wait on the broker", error)
            self.board.set_fault(f"finished games cannot be kept ({error}): they wait on the broker, "
                                 "nothing is lost; they are kept once the disk has room")
            return False
        if self.board.fault is not None and "/games/" in message.topic:
            log.info("the hall keeps finished games again")
            self.board.set_fault(None)
        return True

    def _retry(self) -> None:
        while not self._stopping.wait(RETRY):
            with self._held_lock:
                held = list(self._held)
            for message in held:
                if not self._kept(message):
                    break
                with self._held_lock:
                    if self._held and self._held[0] is message:  # not forgotten by a reconnection meanwhile
                        self._held.pop(0)
                        self._client.ack(message.mid, message.qos)

    def take(self, topic_name: str, payload: bytes) -> None:
        topic = parse_topic(topic_name)
        if topic is None or topic.club != self.club:
            raise MessageError("not a topic of the club's tree")
        if topic.leaf == "status":
            if payload not in (b"online", b"offline"):
                raise MessageError(f"a status is online or offline, not {payload[:40]!r}")
            self.board.set_status(topic.table, payload == b"online")
            return
        document = _json(payload)
        if topic.leaf == "state":
            self.board.set_state(topic.table, document)
        elif topic.leaf == "events":
            seq = document.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
                raise MessageError(f"an event needs its journal sequence number 'seq', got {seq!r}")
            self.board.add_event(topic.table, document)
        else:
            if document.get("game") != topic.game:
                raise MessageError(f"the topic says game {topic.game}, the message {document.get('game')!r}")
            if self.store.record(topic.table, document):
                self.board.games_changed()


def _json(payload: bytes) -> dict[str, Any]:
    try:
        document = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MessageError(f"not JSON: {error}") from None
    if not isinstance(document, dict):
        raise MessageError("not a JSON object")
    return document
