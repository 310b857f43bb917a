"""The service's configuration: one TOML file (`/etc/cardtable/config.toml` unless `--config PATH`).

Every section is a frozen dataclass whose type hints are the schema: `load_config` refuses an unknown
section or key, a value of the wrong type and a file that does not exist with a `ConfigError` naming the
key (`camera.calibration: no such file: /var/lib/cardtable/cal.json`), and builds nothing until the whole
file is good. Relative paths are relative to the config file's folder. TOML has no null, so an optional
setting is one that is left out. The GPIO pins are `controller.hardware.config.HardwareConfig`, under
`[hardware]`.
"""
from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.club.connection import BrokerSettings
from controller.club.topics import RESERVED, check_name
from controller.hardware.config import HardwareConfig
from controller.journal import STATE_DIRECTORY
from controller.pegboard.link import DEFAULT_PORT

DEFAULT_PATH = Path("/etc/cardtable/config.toml")
GAMES = ("cribbage", "femkort", "ferbli")
DECKS = ("52", "32")
DECK_CHECKS = ("off", "offer", "required")
SYNTHETIC = "synthetic"  # the source synthetic[:SEED]
MAX_READS = 8


class ConfigError(ValueError):
    """A bad configuration; `key` is the dotted key at fault ("camera.size"), or "" for the whole file."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key


def _must_exist() -> Any:
    """Metadata for a Path setting that names a file which must exist."""
    return {"file": True}


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera2"  # picamera2, a V4L2 index or /dev/videoN, a video file, a folder, synthetic[:SEED]
    size: tuple[int, int] | None = (1280, 720)
    calibration: Path | None = field(default=None, metadata=_must_exist())
    enrolment: Path | None = field(default=None, metadata=_must_exist())  # an enrolled deck (.npz)
    deck: str = "52"
    fps: float = 15.0
    reads: int = 5  # frames recognised once a scene has settled
    votes: int = 3  # of those reads, how many must see a card for it to count

    def __post_init__(self) -> None:
        if not 1 <= self.reads <= MAX_READS:
            raise ValueError(f"reads: must be 1..{MAX_READS}, not {self.reads}")
        if not 1 <= self.votes <= self.reads:
            raise ValueError(f"votes: must be 1..reads ({self.reads}), not {self.votes}")
        if self.deck not in DECKS:
            raise ValueError(f"deck: must be one of {', '.join(DECKS)}, not {self.deck!r}")
        if self.fps <= 0:
            raise ValueError(f"fps: must be positive, not {self.fps}")
        if self.size is not None and min(self.size) <= 0:
            raise ValueError(f"size: width and height must be positive, not {list(self.size)}")

    @property
    def synthetic(self) -> bool:
        """The scripted scene: it brings its own calibration."""
        return self.source.partition(":")[0] == SYNTHETIC


@dataclass(frozen=True)
class ReaderConfig:
    """The optional deal reader: a second small camera at the dealer's place."""

    source: str | None = None
    size: tuple[int, int] | None = None
    calibration: Path | None = field(default=None, metadata=_must_exist())  # its card scale; None: found


@dataclass(frozen=True)
class PegBoardConfig:
    enabled: bool = True  # false for a table that never plays cribbage
    port: str = DEFAULT_PORT


@dataclass(frozen=True)
class PanelConfig:
    host: str = "0.0.0.0"
    port: int = 8000  # 0: any free port (the service logs the one it got)

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port: must be 0..65535, not {self.port}")


@dataclass(frozen=True)
class ConsoleConfig:
    pin_hash: str = ""  # set with `cardtable console-pin`; empty: the console is locked
    # the deck check between games: "off" (not offered), "offer", "required" (a game, the [game] one at
    # start too, is played only on a deck whose latest check passed; until then it waits)
    deck_check: str = "offer"

    def __post_init__(self) -> None:
        if self.deck_check not in DECK_CHECKS:
            raise ValueError(f"deck_check: must be one of {', '.join(DECK_CHECKS)}, not {self.deck_check!r}")


@dataclass(frozen=True)
class ClubConfig(BrokerSettings):
    """The club evening (opt-in): the table publishes its public view to the club's broker once `host` is
    set. `username` defaults to the table's name, the broker's ACL being keyed on it."""

    club: str = ""
    table: str = ""
    outbox_limit: int = 10_000  # events kept on disk while the broker is away; the oldest go beyond it

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.host:
            return
        check_name("club", self.club)
        check_name("table", self.table)
        if self.table in RESERVED:
            raise ValueError(f"table: {self.table!r} is the hall's broker user, not a table's name")
        if self.outbox_limit < 1:
            raise ValueError(f"outbox_limit: must be at least 1, not {self.outbox_limit}")

    @property
    def enabled(self) -> bool:
        return bool(self.host)

    @property
    def user(self) -> str:
        return self.username or self.table


@dataclass(frozen=True)
class GameConfig:
    """The game a table starts with (the console may start another)."""

    name: str = "cribbage"
    players: tuple[str, ...] = ("Ann", "Bo")
    dealer: int = 0
    deal: str = "closed"  # "open" when a deal reader reads every dealt card
    options: dict[str, Any] = field(default_factory=dict)
    chips: tuple[int, ...] | None = None  # each player's chips at the start (Färbeln is played for chips)

    def __post_init__(self) -> None:
        if self.name not in GAMES:
            raise ValueError(f"name: must be one of {', '.join(GAMES)}, not {self.name!r}")
        if not self.players:
            raise ValueError("players: at least one name")
        if not 0 <= self.dealer < len(self.players):
            raise ValueError(f"dealer: must be a seat 0..{len(self.players) - 1}, not {self.dealer}")
        if self.deal not in ("closed", "open"):
            raise ValueError(f"deal: must be closed or open, not {self.deal!r}")
        if self.name == "ferbli" and self.chips is None:
            raise ValueError("chips: Färbeln is played for chips: one number per player")
        if self.chips is not None and len(self.chips) != len(self.players):
            raise ValueError(f"chips: one number per player ({len(self.players)}), not {list(self.chips)}")


@dataclass(frozen=True)
class ServiceConfig:
    state_directory: Path = STATE_DIRECTORY  # the journal (systemd's StateDirectory=)
    camera: CameraConfig = CameraConfig()
    reader: ReaderConfig = ReaderConfig()
    pegboard: PegBoardConfig = PegBoardConfig()
    hardware: HardwareConfig = HardwareConfig()
    panel: PanelConfig = PanelConfig()
    console: ConsoleConfig = ConsoleConfig()
    game: GameConfig = GameConfig()
    club: ClubConfig = ClubConfig()

    def __post_init__(self) -> None:
        if self.game.deal == "open" and self.reader.source is None:
            raise ConfigError("game.deal", "an open deal needs a deal reader: set reader.source")



def load_config(path: Path) -> ServiceConfig:
    """Read and check a config file; ConfigError naming the key (or the file) for anything wrong."""
    return parse_config(config_text(path), path.parent)


def config_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("", f"cannot read {path}: {exc.strerror or exc}") from None


def parse_config(text: str, base: Path) -> ServiceConfig:
    config = parse_root(text, ServiceConfig, base)
    if config.camera.calibration is None and not config.camera.synthetic:
        raise ConfigError("camera.calibration", "required for a camera (make one with `cardtable vision calibrate`)")
    return config


Root = typing.TypeVar("Root")


def parse_root(text: str, root: type[Root], base: Path) -> Root:
    """A TOML text as the frozen dataclass `root` (its settings, and its sections as dataclasses)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"not valid TOML: {exc}") from None
    hints = typing.get_type_hints(root)
    sections = {name: hint for name, hint in hints.items() if isinstance(hint, type) and dataclasses.is_dataclass(hint)}
    unknown = sorted(set(data) - set(hints))
    if unknown:
        raise ConfigError(unknown[0], f"unknown setting or section (known: {', '.join(hints)})")
    values: dict[str, Any] = {}
    for name, hint in hints.items():
        if name not in data:
            continue
        if name in sections:
            values[name] = _section(name, data[name], sections[name], base)
        else:
            values[name] = _convert(name, data[name], hint, base, _metadata(root, name))
    try:
        return root(**values)
    except ValueError as exc:  # a setting at the top, checked by the root's __post_init__
        if isinstance(exc, ConfigError):
            raise
        key, _, why = str(exc).partition(": ")
        raise ConfigError(key, why) from None


def _metadata(cls: type, name: str) -> typing.Mapping[str, Any]:
    return next(f.metadata for f in dataclasses.fields(cls) if f.name == name)


def _section(name: str, data: Any, cls: type, base: Path) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(name, f"must be a [{name}] table, not {data!r}")
    if cls is HardwareConfig:
        return _hardware(data)
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{name}.{unknown[0]}", f"unknown setting (known: {', '.join(fields)})")
    values = {key: _convert(f"{name}.{key}", value, hints[key], base, fields[key].metadata)
              for key, value in data.items()}
    try:
        return cls(**values)
    except ValueError as exc:  # __post_init__ says "key: why"
        key, _, why = str(exc).partition(": ")
        raise ConfigError(f"{name}.{key}", why) from None


def _hardware(data: dict[str, Any]) -> HardwareConfig:
    """The pins: types checked here (TOML true is no pin number), the rest by HardwareConfig itself."""
    hints = typing.get_type_hints(HardwareConfig)
    for key, value in data.items():
        if key in hints and key != "seats":
            _convert(f"hardware.{key}", value, hints[key], Path(), {})
    try:
        return HardwareConfig.from_mapping(data)
    except ValueError as exc:
        unknown = sorted(set(data) - set(hints))
        raise ConfigError(f"hardware.{unknown[0]}" if unknown else "hardware", str(exc)) from None


def _convert(key: str, value: Any, hint: Any, base: Path, metadata: typing.Mapping[str, Any]) -> Any:
    """`value` as the type `hint` asks for, or a ConfigError naming `key` and what was expected."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # X | None: None is "left out"
        (hint,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(key, f"expected a whole number, got {value!r}")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(key, f"expected a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(key, f"expected a string, got {value!r}")
    if hint is Path:
        if not isinstance(value, str) or not value:
            raise ConfigError(key, f"expected a path, got {value!r}")
        path = base / Path(value).expanduser()
        if metadata.get("file") and not path.is_file():
            raise ConfigError(key, f"no such file: {path}")
        return path
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return _sequence(key, value, args)
    if origin is dict:
        if isinstance(value, dict):
            return dict(value)
        raise ConfigError(key, f"expected a table, got {value!r}")
    raise TypeError(f"{key}: no conversion for {hint}")  # a setting typed with a hint this loader lacks


def _sequence(key: str, value: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    variadic = len(args) == 2 and args[1] is Ellipsis
    item_names = {int: "whole numbers", str: "strings"}
    wanted = f"a list of {'' if variadic else f'{len(args)} '}{item_names[args[0]]}"
    if not isinstance(value, list) or (not variadic and len(value) != len(args)):
        raise ConfigError(key, f"expected {wanted}, got {value!r}")
    kinds = args[:1] * len(value) if variadic else args
    try:
        return tuple(_convert(key, item, kind, Path(), {}) for item, kind in zip(value, kinds))
    except ConfigError:
        raise ConfigError(key, f"expected {wanted}, got {value!r}") from None


# What `cardtable config init` writes: every setting at its default, commented.
DEFAULT_TEXT = f"""\
# cardtable service configuration (TOML). Check it with: cardtable config check {DEFAULT_PATH}
# Relative paths are relative to this file's folder. An optional setting is one left out (commented).

# The journal (systemd creates it: StateDirectory=cardtable).
state_directory = "{STATE_DIRECTORY}"

[camera]
# picamera2 (the Pi's CSI camera), a V4L2 index (0) or /dev/videoN (USB), a video file, a folder of
# images, or synthetic[:SEED] (a scripted scene, for trying the service without a camera).
source = "picamera2"
size = [1280, 720]                 # ask the camera for this size; calibrate at the same size
calibration = "calibration.json"   # cardtable vision calibrate --empty ... --card ... --out calibration.json
# enrolment = "enrolled.npz"       # this table's deck: cardtable vision enroll PHOTOS --out enrolled.npz
deck = "52"                        # the deck in play: 52 (A..K), or 32 (7..A, Färbeln)
fps = 15.0                         # frames read per second at most
reads = 5                          # frames recognised once the table lies still
votes = 3                          # of those, how many must see a card for it to count

[reader]
# The optional deal reader, a second small camera at the dealer's place (needed for game.deal = "open").
# source = "/dev/video2"
# size = [640, 480]
# calibration = "reader-calibration.json"  # the reader's card scale (calibrated at the reader); else found

[pegboard]
enabled = true                     # false for a table without the LED peg board
port = "{DEFAULT_PORT}"   # the udev rule's link to the RP2040

[hardware]
# BCM pin numbers: per seat [go, confirm]; buttons connect the pin to ground.
seats = [[5, 6], [13, 19], [26, 21], [20, 16]]
dealer_next = 23
dealer_undo = 24
buzzer = 18
buzzer_tonal = true                # false for an active (on/off) buzzer
led_red = 17
led_green = 27
led_blue = 22
led_active_high = true             # false for a common-anode RGB LED
bounce_time = 0.02

[panel]
# The spectator page, the dealer console (/console) and the JSON API, served by the service itself.
host = "0.0.0.0"                   # every network of the Pi; "127.0.0.1" for this machine only
port = 8000

[console]
# The dealer console's PIN, hashed (salted scrypt): set it with `cardtable console-pin`. Empty: locked.
pin_hash = ""
# The deck check between games: "offer", "off" (not offered) or "required" (a game, this [game] one at
# start too, is played only on a deck whose latest check passed; until then it waits for one).
deck_check = "offer"

[game]
name = "cribbage"                  # cribbage, femkort or ferbli
players = ["Ann", "Bo"]
dealer = 0                         # the first dealer's seat, from 0
deal = "closed"                    # "open" when the deal reader reads every dealt card
# chips = [20, 20]                 # each player's chips at the start (needed for Färbeln)

[game.options]
# The game's options, as in a hand history header, e.g. target = 61

[club]
# A club evening (README "Club evening"): publish this table's public view to the club's MQTT broker.
# Left without a host, the table publishes nowhere.
# host = "hall.local"
# port = 1883                      # 8883 with TLS
# club = "riverside"
# table = "table-3"                # also the broker user unless username is set
# password_file = "broker-password"  # or password = "..."
# tls_ca = "club-ca.crt"           # the CA of the broker's certificate, for TLS
# outbox_limit = 10000             # events kept on disk while the broker is away (the oldest dropped)
"""


def with_pin_hash(text: str, pin_hash: str) -> str:
    """The config text with `[console] pin_hash` set (the rest of the file, comments included, kept)."""
    lines = text.splitlines()
    setting = f'pin_hash = "{pin_hash}"'
    header = next((i for i, line in enumerate(lines) if line.strip() == "[console]"), None)
    if header is None:
        return text.rstrip("\n") + f"\n\n[console]\n{setting}\n"
    end = next((i for i in range(header + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    existing = next((i for i in range(header + 1, end) if lines[i].split("=")[0].strip() == "pin_hash"), None)
    if existing is None:
        lines.insert(header + 1, setting)
    else:
        lines[existing] = setting
    return "\n".join(lines) + "\n"
