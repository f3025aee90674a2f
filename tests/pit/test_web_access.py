"""Who may see and do what on the dashboard: login, lockout shown plainly, cookies, CSRF, roles."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from web_bench import PASSWORDS, floor_data
from web_client import csrf_of, log_in, session_csrf

from pit.service.web.app import create_app
from pit.service.web.context import WebSettings


class MovedClock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("path", ["/", "/tables/T-1", "/alerts", "/reports", "/tables/T-1/live", "/alerts/list"])
def test_a_page_without_a_login_redirects_to_the_login_page_and_back(client, path):
    answer = client.get(path, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/login?next=")
    page = client.get(answer.headers["location"])
    assert "Log in" in page.text and 'name="password"' in page.text


def test_the_session_cookie_is_httponly_samesite_strict_and_not_secure_over_plain_http(client):
    answer = log_in(client, "sue", follow=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = next(value for value in answer.headers.get_list("set-cookie") if value.startswith("pit_session="))
    flags = {part.strip().lower() for part in cookie.split(";")}
    assert "httponly" in flags and "samesite=strict" in flags and "path=/" in flags
    assert "secure" not in flags


@pytest.mark.parametrize("settings", [WebSettings(), WebSettings(secure_cookies=True)])
def test_over_tls_the_cookies_are_secure(floor, settings):
    client = TestClient(create_app(floor, settings), base_url="https://pit.test")
    form = client.get("/login")
    assert "secure" in form.headers["set-cookie"].lower()
    answer = log_in(client, "sue", follow=False)
    cookie = next(value for value in answer.headers.get_list("set-cookie") if value.startswith("pit_session="))
    assert "secure" in {part.strip().lower() for part in cookie.split(";")}


def test_a_login_without_the_forms_csrf_token_is_refused_and_opens_no_session(client, floor):
    client.get("/login")
    answer = client.post(
        "/login", data={"csrf": "forged", "name": "sue", "password": PASSWORDS["sue"]}, follow_redirects=False
    )
    assert answer.status_code == 403 and "expired" in answer.text
    assert "pit_session" not in client.cookies
    assert floor.logins == []  # the password was never tried


def test_a_wrong_password_says_so_and_five_lock_the_name_shown_plainly(client, floor):
    answer = log_in(client, "sue", "wrong")
    assert answer.status_code == 401 and "wrong name or password" in answer.text
    for _ in range(4):
        answer = log_in(client, "sue", "wrong")
    assert answer.status_code == 401
    assert "sue is locked for 60 s after five wrong passwords" in answer.text
    assert 'class="notice locked"' in answer.text
    right = log_in(client, "sue")  # the right password while locked is still refused
    assert "locked for" in right.text and "pit_session" not in client.cookies
    assert [accepted for _, _, accepted in floor.logins] == [False] * 6


def test_after_the_lock_the_right_password_logs_in(journals):
    clock = MovedClock()
    data = floor_data(journals)
    data.clock = clock
    client = TestClient(create_app(data))
    for _ in range(5):
        log_in(client, "sam", "wrong")
    clock.now += 61
    assert log_in(client, "sam").status_code == 200 and "pit_session" in client.cookies


def test_a_login_never_sends_the_user_to_another_site(client):
    form = client.get("/login?next=//evil.example/x")
    answer = client.post(
        "/login",
        data={"csrf": csrf_of(form.text), "name": "sue", "password": PASSWORDS["sue"], "next": "//evil.example/x"},
        follow_redirects=False,
    )
    assert answer.headers["location"] == "/"


def test_a_form_post_without_its_csrf_token_is_refused_and_changes_nothing(client, floor):
    log_in(client, "sue")
    answer = client.post("/alerts/1/ack", data={"note": "seen"})
    assert answer.status_code == 403 and "CSRF" in answer.text
    answer = client.post("/alerts/1/ack", data={"note": "seen", "csrf": "not-this-sessions"})
    assert answer.status_code == 403
    assert all(alert["acked"] is None for alert in floor.alerts())


def test_logout_needs_the_token_and_ends_the_session(client):
    log_in(client, "sue")
    assert client.post("/logout", data={}).status_code == 403
    token = session_csrf(client)
    answer = client.post("/logout", data={"csrf": token}, follow_redirects=False)
    assert answer.status_code == 303
    client.cookies.clear()
    assert client.get("/", follow_redirects=False).status_code == 303


def test_an_old_session_cookie_stops_working_at_logout(client):
    log_in(client, "sue")
    key = client.cookies["pit_session"]
    client.post("/logout", data={"csrf": session_csrf(client)})
    client.cookies.set("pit_session", key)
    assert client.get("/api/tables").status_code == 401


def test_surveillance_sees_no_acknowledge_button_and_its_form_post_is_403(client, floor):
    log_in(client, "sam")
    page = client.get("/alerts")
    assert "Acknowledge</button>" not in page.text and "a supervisor or a manager acknowledges" in page.text
    answer = client.post("/alerts/1/ack", data={"note": "seen", "csrf": csrf_of(page.text)})
    assert answer.status_code == 403 and "surveillance" in answer.text
    assert all(alert["acked"] is None for alert in floor.alerts())


def test_reports_are_shown_to_managers_only(client):
    log_in(client, "sue")
    assert ">Reports</a>" not in client.get("/").text
    assert client.get("/reports").status_code == 403
    client.cookies.clear()
    log_in(client, "meg")
    assert ">Reports</a>" in client.get("/").text
    assert client.get("/reports").status_code == 200
