"""The console's door: PIN attempts limited per client, and the CSRF token every state change carries.

Wrong PINs are counted per client address, not for the whole room: after `max_failures` wrong PINs that
address waits `lockout` seconds, doubling with each further wrong PIN up to `max_lockout`, while the
dealer's own phone (another address) still signs in. A right PIN clears the count. At most
`MAX_CLIENTS` addresses are remembered (the oldest are forgotten first), so a flood cannot fill memory.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

MAX_CLIENTS = 1024
CSRF_KEY = "csrf"


@dataclass
class _Failures:
    count: int = 0
    until: float = 0.0  # the clock time before which this client may not try again


class AttemptLimiter:
    def __init__(self, max_failures: int, lockout: float, max_lockout: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures, self.lockout, self.max_lockout = max_failures, lockout, max_lockout
        self._clock = clock
        self._clients: OrderedDict[str, _Failures] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Seconds `client` must still wait before trying a PIN (0: it may try now)."""
        with self._lock:
            failures = self._clients.get(client)
            return 0.0 if failures is None else max(0.0, failures.until - self._clock())

    def failed(self, client: str) -> None:
        with self._lock:
            failures = self._clients.pop(client, None) or _Failures()
            failures.count += 1
            extra = failures.count - self.max_failures
            if extra >= 0:
                failures.until = self._clock() + min(self.max_lockout, self.lockout * 2 ** extra)
            self._clients[client] = failures  # the most recent last
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


def csrf_token(session: MutableMapping[str, Any]) -> str:
    """This browser session's token (made on first use)."""
    token = session.get(CSRF_KEY)
    if not isinstance(token, str):
        token = session[CSRF_KEY] = secrets.token_urlsafe(32)
    return token


def csrf_valid(session: MutableMapping[str, Any], sent: str | None) -> bool:
    expected = session.get(CSRF_KEY)
    return isinstance(expected, str) and sent is not None and hmac.compare_digest(expected, sent)
