"""Sessions of the room: signed, expiring tokens (itsdangerous, HMAC-SHA1 over the
payload and a timestamp, keyed by the server's secret).

A token names a member or a guest and carries a random session id; it is sent as the
``session`` cookie or in the WebSocket's ``hello``.  A forged token and an expired one
are refused with one line; a session ended by logging out is refused by the room,
which keeps its id until the token would have expired (``Room.identify``).
Servers that share a database must share the secret, so a token issued by one is
good on every other.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from fechtbuch.wartesaal.accounts import GUEST_PREFIX
from fechtbuch.wartesaal.table import RoomError
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

SESSION_SECONDS = 7 * 24 * 3600
"""How long a session lasts after login."""
MAX_TOKEN = 1000
"""Characters of a session token; an issued one has about 150."""


@dataclass(frozen=True)
class Identity:
    name: str
    guest: bool
    session: str = ""
    """The id of the session it came from ("" for a token issued before sessions had
    one: such a token cannot be ended early)."""


class Sessions:
    def __init__(self, secret: str, max_age: float = SESSION_SECONDS) -> None:
        if len(secret) < 16:
            raise RoomError("secret: at least 16 characters")
        self.serializer = URLSafeTimedSerializer(secret, salt="wartesaal-session")
        self.max_age = max_age

    def issue(self, identity: Identity) -> str:
        session = secrets.token_hex(16)
        return self.serializer.dumps(
            {"name": identity.name, "guest": identity.guest, "session": session}
        )

    def guest(self) -> tuple[Identity, str]:
        token = self.issue(Identity(GUEST_PREFIX + secrets.token_hex(4), True))
        return self.check(token), token

    def check(self, token: object) -> Identity:
        """The identity a token names; a :class:`RoomError` if it is forged or expired."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN:
            raise RoomError("session: missing or malformed")
        try:
            data = self.serializer.loads(token, max_age=self.max_age)
        except SignatureExpired:
            raise RoomError("session: expired, log in again") from None
        except BadSignature:
            raise RoomError("session: not signed by this room") from None
        return Identity(data["name"], bool(data["guest"]), str(data.get("session", "")))
