"""The club's topic tree on the broker, shared by the tables (writers) and the hall (the reader):

    cardtable/<club>/<table>/status        "online" / "offline" (retained; "offline" is the last will)
    cardtable/<club>/<table>/state         the hub's public document (retained, the latest only)
    cardtable/<club>/<table>/events        one accepted event: its journal seq, game, n, type, seat (QoS 1)
    cardtable/<club>/<table>/games/<id>    a finished game: result and hand history (retained, QoS 1)

A name is a topic level of its own, so it may not hold MQTT's separators or wildcards; the broker's ACL
lets a table's user write only under its own name (deploy/mosquitto/).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "cardtable"
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
RESERVED = ("hall",)  # the hall's broker user: no table may be called so (the ACL's pattern is by user name)


def check_name(what: str, name: str) -> str:
    """`name` if it can be a club or table name, else ValueError saying why."""
    if not NAME.fullmatch(name):
        raise ValueError(f"{what}: 1..64 letters, digits, '-' or '_' (a topic level), not {name!r}")
    return name


def table_topic(club: str, table: str, leaf: str) -> str:
    return f"{ROOT}/{club}/{table}/{leaf}"


def club_filter(club: str) -> str:
    return f"{ROOT}/{club}/#"


@dataclass(frozen=True)
class Topic:
    """A topic of the club's tree, taken apart: `leaf` is status, state, events or games; `game` the id."""

    club: str
    table: str
    leaf: str
    game: int | None = None


def parse_topic(topic: str) -> Topic | None:
    """The parts of a topic of the tree; None for anything else (the hall ignores it)."""
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] != ROOT or not all(NAME.fullmatch(p) for p in parts[1:3]):
        return None
    club, table, leaf, rest = parts[1], parts[2], parts[3], parts[4:]
    if leaf in ("status", "state", "events") and not rest:
        return Topic(club, table, leaf)
    if leaf == "games" and len(rest) == 1 and rest[0].isdigit():
        return Topic(club, table, leaf, int(rest[0]))
    return None
