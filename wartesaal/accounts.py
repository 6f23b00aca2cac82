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


def register(tx: Tx, hasher: PasswordHasher, name: object, password: object, now: float) -> str:
    """Create the account; a :class:`RoomError` naming the field if the name is taken
    or malformed or the password too short or too long."""
    name, password = check_name(name), check_password(password)
    if tx.account(name) is not None:
        raise RoomError(f"name: {name!r} is taken")
    tx.add_account(
        {
            "name": name,
            "password_hash": hasher.hash(password),
            "points": 0,
            "elo": roomrules.ELO_START,
            "taler": roomrules.TALER_START,
            "games": 0,
            "created": now,
        }
    )
    return name


def login(tx: Tx, hasher: PasswordHasher, name: object, password: object) -> str:
    """The account's name if the password is right; one message for a wrong name and a
    wrong password alike, so names cannot be probed."""
    wrong = RoomError("password: wrong name or password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise wrong
    account = tx.account(name[:40])
    if account is None:
        hasher.hash("x" * MIN_PASSWORD)  # as slow as a real check
        raise wrong
    try:
        hasher.verify(account["password_hash"], password[:MAX_PASSWORD])
    except (VerificationError, InvalidHashError):
        raise wrong from None
    if hasher.check_needs_rehash(account["password_hash"]):
        tx.update_account(name, password_hash=hasher.hash(password))
    return account["name"]
