"""The broker connection both sides share: settings (a config section) and the paho client built from them.

MQTT 5 throughout, since only with it does Mosquitto answer a publish its ACL refuses with "Not
authorized" (3.1.1 acknowledges it as if it were taken, and drops it). The client reconnects by itself
(1 s, doubling to 4 s) from paho's network thread; nothing here ever blocks the caller on the network.
"""
from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

SESSION_EXPIRY = 24 * 3600  # seconds the broker keeps a reader's session (and queues for it) while it is away
KEEPALIVE = 30  # seconds: a table that vanishes goes "offline" on the hall within 1.5 times this
RECONNECT_MIN, RECONNECT_MAX = 1, 4  # seconds between reconnection attempts: a LAN broker back is found soon


@dataclass(frozen=True)
class BrokerSettings:
    host: str = ""  # the club's broker; empty: not connected to any
    port: int = 1883  # 8883 is the usual port with TLS
    username: str = ""
    password: str = ""
    password_file: Path | None = field(default=None, metadata={"file": True})  # first line is the password
    tls_ca: Path | None = field(default=None, metadata={"file": True})  # the CA that signed the broker's certificate

    def __post_init__(self) -> None:
        if not 1 <= self.port <= 65535:
            raise ValueError(f"port: must be 1..65535, not {self.port}")
        if self.password and self.password_file is not None:
            raise ValueError("password: give password or password_file, not both")

    @property
    def user(self) -> str:
        """The broker user connecting (a table's defaults to its name: controller.service.config.ClubConfig)."""
        return self.username

    def secret(self) -> str:
        if self.password_file is None:
            return self.password
        lines = self.password_file.read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else ""


def make_client(settings: BrokerSettings, client_id: str) -> mqtt.Client:
    """A paho client for the broker, credentials and TLS set, not yet connected."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTProtocolVersion.MQTTv5)
    if settings.user:
        client.username_pw_set(settings.user, settings.secret() or None)
    if settings.tls_ca is not None:
        client.tls_set(ca_certs=str(settings.tls_ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)
    return client


def connect_reader(client: mqtt.Client, settings: BrokerSettings) -> None:
    """Connect (in the background) with a session the broker keeps: the QoS 1 messages that come while
    the reader is away, or while the broker restarts (it saves them), are delivered once it is back."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY
    client.connect_async(settings.host, settings.port, KEEPALIVE, clean_start=False, properties=properties)
