"""The hall's subscriber: the hall's broker user reads `cardtable/<club>/#` (QoS 1, a session the broker
keeps, so what comes while the hall or the broker restarts is delivered after) and hands each message
to the board, and each finished game to the store first.

A message that is not what its topic says (not JSON, a finished game without its history, an event
without its sequence number) is refused: logged with its topic and why, counted on the board, and
dropped; it never stops the hall or touches what is kept.
"""
from __future__ import annotations

import json
import logging
from typing import Any

import paho.mqtt.client as mqtt

from controller.club.connection import BrokerSettings, connect_reader, make_client
from controller.club.topics import club_filter, parse_topic

from .board import HallBoard
from .store import GameError, HallStore

log = logging.getLogger(__name__)


class MessageError(ValueError):
    pass


class HallSubscriber:
    def __init__(self, settings: BrokerSettings, club: str, board: HallBoard, store: HallStore) -> None:
        self.settings, self.club, self.board, self.store = settings, club, board, store
        self._client = make_client(settings, f"cardtable-hall-{club}")
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self.subscribed = False

    def start(self) -> None:
        connect_reader(self._client, self.settings)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the club's broker refused the hall: %s", reason)
            return
        client.subscribe(club_filter(self.club), qos=1)
        self.subscribed = True
        log.info("the hall follows %s on %s:%d", club_filter(self.club), self.settings.host, self.settings.port)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.take(message.topic, bytes(message.payload))
        except (MessageError, GameError) as error:
            log.warning("refused a message on %s: %s", message.topic, error)
            self.board.add_refusal()

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
