"""A real Mosquitto for the club tests: Debian's broker on a free loopback port, with a password file made
by `mosquitto_passwd`, the repository's ACL (deploy/mosquitto/cardtable.acl) and persistence in the
test's folder, so a restart keeps the retained messages and the hall's queued ones as the club's would."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.club.connection import BrokerSettings, connect_reader, make_client

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
ACL = Path(__file__).resolve().parent.parent / "deploy" / "mosquitto" / "cardtable.acl"
HALL_PASSWORD = "hall-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def password(user: str) -> str:
    return f"{user}-secret"


def make_certificates(folder: Path) -> None:
    """A club CA (ca.crt) and the broker's certificate for 127.0.0.1 signed by it (broker.crt, broker.key)."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=club CA", "-days", "2")
    openssl("req", *curve, "-keyout", "broker.key", "-out", "broker.csr", "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "broker.crt", "-days", "2", "-extfile", "san.ext")


class Broker:
    """`tls=True` adds a TLS listener on `tls_port` with a certificate from a club CA (`ca`); `log_all`
    logs every packet (`log()` then shows which PUBLISH a client acknowledged)."""

    def __init__(self, folder: Path, tables: list[str], tls: bool = False, log_all: bool = False) -> None:
        self.folder, self.port = folder, free_port()
        folder.mkdir(parents=True, exist_ok=True)
        passwd = folder / "passwd"
        passwd.write_text("".join(f"{user}:{password(user)}\n" for user in tables) + f"hall:{HALL_PASSWORD}\n")
        subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True)  # hashes the file in place
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {passwd}\nacl_file {ACL}\n"
            f"persistence true\npersistence_location {folder}/\nuser {pwd.getpwuid(os.getuid()).pw_name}\n"
            f"max_queued_messages 100000\nlog_dest file {folder}/mosquitto.log\n"
            + ("log_type all\n" if log_all else ""))
        self.ca: Path | None = None
        self.tls_port = 0
        if tls:
            make_certificates(folder)
            self.ca, self.tls_port = folder / "ca.crt", free_port()
            with (folder / "mosquitto.conf").open("a") as conf:
                conf.write(f"listener {self.tls_port} 127.0.0.1\ncertfile {folder}/broker.crt\n"
                           f"keyfile {folder}/broker.key\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log()}")

    def stop(self) -> None:
        """A clean stop (SIGTERM): Mosquitto saves its retained and queued messages."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text() if path.exists() else ""

    def settings(self, user: str, secret: str | None = None) -> BrokerSettings:
        return BrokerSettings("127.0.0.1", self.port, user, password(user) if secret is None else secret)

    def hall_settings(self) -> BrokerSettings:
        return BrokerSettings("127.0.0.1", self.port, "hall", HALL_PASSWORD)


@dataclass
class Spy:
    """The hall's user reading every message on the tree, in the order the broker delivers them; its
    session is kept by the broker, so it hears what was sent while the broker restarted."""

    broker: Broker
    name: str = field(default_factory=lambda: f"spy-{uuid.uuid4().hex[:8]}")  # no two spies share a session
    messages: list[mqtt.MQTTMessage] = field(default_factory=list)
    subscribed: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.client = make_client(self.broker.hall_settings(), self.name)
        self.client.on_message = lambda client, userdata, message: self.messages.append(message)
        self.client.on_subscribe = lambda *args: self.subscribed.set()
        self.client.on_connect = lambda client, *args: client.subscribe("cardtable/#", qos=1)
        connect_reader(self.client, self.broker.hall_settings())
        self.client.loop_start()
        assert self.subscribed.wait(5), "the spy could not subscribe"

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def on(self, topic: str) -> list[Any]:
        """The JSON payloads received on `topic`, in order."""
        return [json.loads(m.payload) for m in list(self.messages) if m.topic == topic]


def wait_until(condition: Any, timeout: float = 30.0, what: str = "the condition") -> None:
    # 30 s: a loaded 2-core machine (the whole suite in parallel beside other work) once took more than 10 s
    # to bring a finished game to the hall's board; a condition met returns at once whatever the bound
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        time.sleep(0.02)
