"""The pit's pages guard themselves: each route declares the roles it serves, every answer carries the
security headers, and a body too large for any form is refused with the API's own error."""

from __future__ import annotations

import pytest
from web_bench import SUPERVISOR_TOKEN
from web_client import log_in

from pit.service.web.app import create_app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("path", ["/login", "/", "/api/tables", "/static/pit.css"])
def test_every_answer_forbids_framing_sniffing_and_other_sites_scripts(client, path):
    if path != "/login":
        log_in(client, "meg")
    answer = client.get(path)
    assert answer.headers["x-frame-options"] == "DENY" and answer.headers["x-content-type-options"] == "nosniff"
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "default-src 'self'" in policy


def test_a_route_serves_only_the_roles_it_declares(client):
    refused = client.get("/api/reports/shift", headers=bearer(SUPERVISOR_TOKEN))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert "reports are for managers" in refused.json()["error"]["message"]
    log_in(client, "meg")  # a manager
    assert client.get("/api/reports/shift").status_code == 200


def test_a_two_megabyte_note_gets_the_apis_own_error(client):
    log_in(client, "meg")
    huge = "x" * 2_000_000
    answer = client.post("/api/alerts/1/ack", json={"note": huge}, headers=bearer(SUPERVISOR_TOKEN))
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "body_too_large"
    form = client.post("/alerts/1/ack", data={"note": huge, "csrf": "x"})
    assert form.status_code == 413 and "at most" in form.text


def test_the_app_is_one_application_with_the_headers_on_its_404s(floor):
    from starlette.testclient import TestClient

    with TestClient(create_app(floor)) as raw:
        answer = raw.get("/api/nothing")
        assert answer.status_code == 404 and answer.headers["x-frame-options"] == "DENY"


def test_a_csv_cell_a_spreadsheet_would_run_as_a_formula_is_written_as_text():
    from pit.service.web.report_view import as_csv

    written = as_csv([{"dealer": '=HYPERLINK("http://x")', "net": -25, "note": "-5 left"}], ("dealer", "net", "note"))
    assert written.splitlines()[1] == '"\'=HYPERLINK(""http://x"")",-25,\'-5 left'
