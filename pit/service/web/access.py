"""Who is asking: login sessions (HttpOnly, SameSite=Strict cookies), CSRF tokens, API bearer tokens.

Sessions live in the pit service's memory: a cookie holds only a random key, so a stolen page
cannot forge one and a logout ends it at once. A restart of the service asks everyone to log in again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from pit.service.floor.data import PitData, User

SESSION_COOKIE = "pit_session"
LOGIN_CSRF_COOKIE = "pit_login_csrf"  # the login form's token, before there is a session
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True, slots=True)
class Session:
    user: User
    csrf: str
    expires: float


class Sessions:
    """Open login sessions by cookie key; each ends after `lifetime_s` or at logout."""

    def __init__(self, lifetime_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime_s = lifetime_s
        self.clock = clock
        self._open: dict[str, Session] = {}
        self._lock = threading.Lock()

    def open(self, user: User) -> tuple[str, Session]:
        key = secrets.token_urlsafe(32)
        session = Session(user, secrets.token_urlsafe(32), self.clock() + self.lifetime_s)
        with self._lock:
            self._open[key] = session
        return key, session

    def get(self, key: str | None) -> Session | None:
        if not key:
            return None
        with self._lock:
            session = self._open.get(key)
            if session is not None and session.expires <= self.clock():
                del self._open[key]
                return None
        return session

    def close(self, key: str | None) -> None:
        with self._lock:
            self._open.pop(key or "", None)


@dataclass(frozen=True, slots=True)
class Caller:
    """A logged-in user and how they came: a login session (`login`, with its CSRF token) or a bearer token."""

    user: User
    login: Session | None

    def csrf_ok(self, offered: str | None) -> bool:
        """A bearer token carries no cookie, so it needs no CSRF token; a session needs its own."""
        if self.login is None:
            return True
        return offered is not None and hmac.compare_digest(offered, self.login.csrf)


def caller(request: Request, sessions: Sessions, data: PitData) -> Caller | None:
    authorization = request.headers.get("authorization", "")
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        user = data.token_user(token.strip())
        return None if user is None else Caller(user, None)
    session = sessions.get(request.cookies.get(SESSION_COOKIE))
    return None if session is None else Caller(session.user, session)


def set_cookie(response: Response, name: str, value: str, secure: bool, max_age: int | None = None) -> None:
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True, samesite="strict", secure=secure)


def same_token(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))
