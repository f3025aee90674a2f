"""Logging in to the dashboard in a test as a browser does: the login form's CSRF token, then POST."""

from __future__ import annotations

import re

from starlette.testclient import TestClient
from web_bench import PASSWORDS

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def log_in(client: TestClient, name: str, password: str | None = None, follow: bool = True):
    form = client.get("/login")
    return client.post(
        "/login",
        data={"csrf": csrf_of(form.text), "name": name, "password": password or PASSWORDS[name], "next": "/"},
        follow_redirects=follow,
    )


def session_csrf(client: TestClient) -> str:
    return csrf_of(client.get("/").text)
