"""Accounts of the room: a name and a password, hashed with Argon2id (argon2-cffi).

The hash string carries its own parameters and salt, so stronger parameters later
still verify old hashes (and :func:`verify` says when one should be rehashed).
Guests have no account: their names start with :data:`GUEST_PREFIX`, which no
account may take.
"""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fechtbuch.wartesaal import roomrules
from fechtbuch.wartesaal.store import Tx
from fechtbuch.wartesaal.table import RoomError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,23}")
"""3 to 24 letters, digits, ``_`` or ``-``, starting with a letter."""
GUEST_PREFIX = "Gast-"
MIN_PASSWORD, MAX_PASSWORD = 8, 256


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise RoomError("name: 3 to 24 letters, digits, '_' or '-', starting with a letter")
    if name.startswith(GUEST_PREFIX):
        raise RoomError(f"name: {GUEST_PREFIX!r} is reserved for guests")
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise RoomError(f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def add(tx: Tx, name: str, password_hash: str, now: float) -> None:
    """Create the account (name and password checked, the hash made outside the
    transaction: hashing is slow on purpose); a :class:`RoomError` if it is taken."""
    if tx.account(name) is not None:
        raise RoomError(f"name: {name!r} is taken")
    tx.add_account(
        {
            "name": name,
            "password_hash": password_hash,
            "points": 0,
            "elo": roomrules.ELO_START,
            "taler": roomrules.TALER_START,
            "games": 0,
            "created": now,
        }
    )


def verify(hasher: PasswordHasher, account: dict | None, password: object) -> bool:
    """Whether ``password`` opens ``account``; a :class:`RoomError` with one message
    for a wrong name and a wrong password alike, so names cannot be probed.  True when
    the hash should be renewed (stronger parameters since it was made)."""
    wrong = RoomError("password: wrong name or password")
    if not isinstance(password, str):
        raise wrong
    if len(password) > MAX_PASSWORD:
        # compared whole or not at all: no account has a longer one (``check_password``)
        raise RoomError(f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if account is None:
        hasher.hash("x" * MIN_PASSWORD)  # as slow as a real check
        raise wrong
    try:
        hasher.verify(account["password_hash"], password)
    except (VerificationError, InvalidHashError):
        raise wrong from None
    return hasher.check_needs_rehash(account["password_hash"])
