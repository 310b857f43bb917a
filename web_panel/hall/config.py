"""The hall's TOML config (`cardtable hall --config hall.toml`), read by the service config's loader, so a
bad key is named the same way (`broker.port: must be 1..65535, not 0`).

    club = "riverside"                 # the club whose tables the hall shows: cardtable/<club>/#
    database = "hall.sqlite3"          # the finished games (relative to this file's folder)
    [broker]                           # host, port, username ("hall"), password or password_file, tls_ca
    [web]                              # host, port (8080)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from controller.club.connection import BrokerSettings
from controller.club.topics import check_name
from controller.service.config import ConfigError, PanelConfig, config_text, parse_root


@dataclass(frozen=True)
class HallWebConfig(PanelConfig):
    port: int = 8080


@dataclass(frozen=True)
class HallBrokerSettings(BrokerSettings):
    host: str = "localhost"
    username: str = "hall"  # the ACL's reading user (deploy/mosquitto/cardtable.acl)


@dataclass(frozen=True)
class HallConfig:
    club: str = ""
    database: Path = Path("hall.sqlite3")
    broker: HallBrokerSettings = HallBrokerSettings()
    web: HallWebConfig = HallWebConfig()

    def __post_init__(self) -> None:
        check_name("club", self.club)
        if not self.broker.host:
            raise ConfigError("broker.host", "the hall needs the club's broker")


def load_hall_config(path: Path) -> HallConfig:
    config = parse_root(config_text(path), HallConfig, path.parent)
    if not config.database.is_absolute():  # the default too is beside the config file
        config = replace(config, database=path.parent / config.database)
    return config


EXAMPLE = """\
# cardtable hall: the club evening's board (README "Club evening").
club = "riverside"
database = "/var/lib/cardtable-hall/hall.sqlite3"

[broker]
host = "localhost"
port = 1883
username = "hall"
password_file = "/etc/cardtable/hall-broker-password"
# tls_ca = "/etc/cardtable/club-ca.crt"   # with port = 8883

[web]
host = "0.0.0.0"
port = 8080
"""
