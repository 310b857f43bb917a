"""The dealer console's PIN: stored only as a salted scrypt hash (`hashlib.scrypt`), checked in constant time.

A stored hash reads `scrypt$N$r$p$SALT$HASH` (salt and hash in base64), so the cost can be raised later
without breaking the PINs already set.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os

SCHEME = "scrypt"
# scrypt's cost: 2**14 x 8 takes 16 MB and ~50 ms on a Pi 4, slow enough to make guessing a PIN offline dear
COST_N, BLOCK_R, PARALLEL_P = 2**14, 8, 1
SALT_BYTES, HASH_BYTES = 16, 32
MIN_DIGITS, MAX_DIGITS = 4, 12


class PinError(ValueError):
    """A PIN that may not be set, or a stored hash that cannot be read."""


def check_pin(pin: str) -> str:
    """`pin` if it is 4..12 digits; a PinError saying what is wrong otherwise."""
    if not pin.isascii() or not pin.isdigit():
        raise PinError("the PIN must be digits only")
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        raise PinError(f"the PIN must have {MIN_DIGITS} to {MAX_DIGITS} digits, not {len(pin)}")
    return pin


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """The stored form of a new PIN (a fresh random salt unless one is given)."""
    check_pin(pin)
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = _scrypt(pin, salt, COST_N, BLOCK_R, PARALLEL_P)
    return "$".join((SCHEME, str(COST_N), str(BLOCK_R), str(PARALLEL_P), _b64(salt), _b64(digest)))


def verify_pin(pin: str, stored: str) -> bool:
    """Does `pin` match the stored hash? False for an empty store (no PIN set: the console is locked);
    PinError for a stored value that is no hash of ours."""
    if not stored:
        return False
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise PinError(f"console.pin_hash is not a {SCHEME} hash (set the PIN again: cardtable console-pin)")
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, expected = base64.b64decode(parts[4], validate=True), base64.b64decode(parts[5], validate=True)
        actual = _scrypt(pin, salt, n, r, p)  # scrypt refuses a cost that is not a power of two
    except ValueError:
        raise PinError("console.pin_hash is damaged (set the PIN again: cardtable console-pin)") from None
    return hmac.compare_digest(actual, expected)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=HASH_BYTES, maxmem=256 * 1024 * 1024)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
