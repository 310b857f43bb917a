"""The panel's own knobs (the address, port and PIN hash come from the service's config)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PanelSettings:
    keepalive: float = 15.0  # seconds between keep-alive comments on an idle stream
    pin_hash: str = ""  # the console PIN's stored hash (controller.service.pin); empty: the console is locked
    max_failures: int = 5  # wrong PINs from one address before it must wait
    lockout: float = 30.0  # seconds the first wait lasts; it doubles with every further wrong PIN
    max_lockout: float = 900.0
    secret_key: bytes | None = None  # signs the session cookie; None: a fresh random key per start

    def __post_init__(self) -> None:
        if self.keepalive <= 0:
            raise ValueError(f"keepalive: must be positive, not {self.keepalive}")
        if self.max_failures < 1:
            raise ValueError(f"max_failures: must be at least 1, not {self.max_failures}")
