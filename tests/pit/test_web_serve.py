"""`pit serve`'s web listener: HOST:PORT read plainly, HTTPS with Secure cookies when given a certificate;
and `pit serve` itself on a real broker and store, refusing a call without a login (401) and a
surveillance user's acknowledgement (403)."""

from __future__ import annotations

import json
import signal
import ssl
import subprocess
import time
from decimal import Decimal

import httpx
import pytest
from memory_pit import MemoryPitData
from web_bench import PASSWORDS, bench_journals, floor_data
from web_browser import running
from web_client import csrf_of, session_csrf

from dealer_assist.errors import Failure
from dealer_assist.journal.journal_file import read_records
from pit.address import parse_address
from pit.service.floor.data import Role
from pit.service.store.pit_store import PitStore
from pit.service.web.serve import web_config
from pit.stream.wire import journal_identity
from pit.trial.local_services import free_port
from tests.pit.journals import bench_journal
from tests.pit.pit_service import ROOT, fresh_database, pit_command, pit_serving, rooms_broker, serve_command, wait_for


def test_http_is_host_and_port():
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address("[::1]:443") == ("::1", 443)


@pytest.mark.parametrize("http", ["8080", "host:", ":80", "host:99999", "host:eighty"])
def test_a_bad_http_address_names_it(http):
    with pytest.raises(Failure, match="--http .*HOST:PORT"):
        parse_address(http)


def test_a_certificate_without_its_key_is_refused(tmp_path):
    with pytest.raises(Failure, match="go together"):
        web_config(MemoryPitData(), "127.0.0.1:8443", tls_cert=tmp_path / "cert.pem")
    with pytest.raises(Failure, match="no such file"):
        web_config(MemoryPitData(), "127.0.0.1:8443", tmp_path / "cert.pem", tmp_path / "key.pem")


@pytest.mark.slow
def test_over_https_the_login_and_session_cookies_are_secure(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    port = free_port()
    data = floor_data(bench_journals(tmp_path))
    with running(web_config(data, f"127.0.0.1:{port}", cert, key)):
        with httpx.Client(
            base_url=f"https://127.0.0.1:{port}", verify=ssl.create_default_context(cafile=str(cert))
        ) as client:
            form = client.get("/login")
            assert "secure" in form.headers["set-cookie"].lower()
            answer = client.post(
                "/login", data={"csrf": csrf_of(form.text), "name": "sue", "password": PASSWORDS["sue"]}
            )
            session = next(v for v in answer.headers.get_list("set-cookie") if v.startswith("pit_session="))
            assert {"secure", "httponly", "samesite=strict"} <= {part.strip().lower() for part in session.split(";")}
            assert client.get("/api/tables").status_code == 200
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/login", timeout=3)


@pytest.mark.slow
def test_pit_serve_puts_up_the_dashboard_and_stops_on_sigint_with_a_page_listening(nats_server, postgres):
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    store.add_user("sue", Role.SUPERVISOR, PASSWORDS["sue"])
    store.close()
    port = free_port()
    serving = subprocess.Popen(
        serve_command(nats_server.url, dsn, f"127.0.0.1:{port}"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert json.loads(serving.stdout.readline())["serving"] == f"http://127.0.0.1:{port}"
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as client:
            for _ in range(100):
                try:
                    form = client.get("/login")
                    break
                except httpx.ConnectError:
                    time.sleep(0.1)
            assert client.get("/api/tables").status_code == 401
            client.post("/login", data={"csrf": csrf_of(form.text), "name": "sue", "password": PASSWORDS["sue"]})
            assert client.get("/api/tables").json() == []
            with client.stream("GET", "/api/events") as events:
                assert events.status_code == 200
                serving.send_signal(signal.SIGINT)
                assert serving.wait(15) == 0
    finally:
        if serving.poll() is None:
            serving.kill()
            serving.wait()


def _logged_in(client: httpx.Client, name: str) -> str:
    """Log `client` in as `name`; the session's CSRF token."""
    form = client.get("/login")
    assert (
        client.post("/login", data={"csrf": csrf_of(form.text), "name": name, "password": PASSWORDS[name]}).status_code
        == 303
    )
    return session_csrf(client)  # type: ignore[arg-type]


@pytest.mark.slow
def test_pit_serve_on_the_real_store_wants_a_login_and_refuses_surveillance_an_acknowledgement(tmp_path, postgres):
    dsn = fresh_database(postgres)
    broker, creds = rooms_broker(dsn, tmp_path, ["T1"])
    store = PitStore.open(dsn)
    store.add_user("sue", Role.SUPERVISOR, PASSWORDS["sue"])
    store.add_user("sam", Role.SURVEILLANCE, PASSWORDS["sam"])
    store.set_payout_threshold(Decimal(100))  # bench rounds pay that much: a real alert to acknowledge
    wall_screen = pit_command("token", "add", "wall-screen", "--role", "surveillance", "--db", dsn).strip()
    try:
        with pit_serving(broker.url, dsn, tmp_path / "pit.log") as base:
            journal = journal_identity(
                next(read_records(bench_journal(tmp_path / "t1.db", 4, 4, "T1", pit=(broker.url, creds["T1"]))))
            )
            alert = wait_for(lambda: store.alerts(state="open"), what="an open alert")[0]
            ack, note = f"/api/alerts/{alert['id']}/ack", {"note": "seen on camera 4"}
            with httpx.Client(base_url=base) as anyone:
                for answer in (
                    anyone.get("/api/tables"),
                    anyone.get(f"/api/witness/{journal}"),
                    anyone.post(ack, json=note),
                    anyone.get("/api/alerts", headers={"Authorization": "Bearer x"}),
                ):
                    assert answer.status_code == 401, answer.text
                    assert answer.json()["error"]["code"] == "login_required"
                by_token = anyone.post(ack, json=note, headers={"Authorization": f"Bearer {wall_screen}"})
            with httpx.Client(base_url=base) as sam:
                by_login = sam.post(ack, json=note, headers={"x-csrf-token": _logged_in(sam, "sam")})
            for answer in (by_token, by_login):
                assert answer.status_code == 403, answer.text
                assert (
                    answer.json()["error"]["code"] == "forbidden"
                    and "surveillance" in answer.json()["error"]["message"]
                )
            assert alert["id"] in [a["id"] for a in store.alerts(state="open")]  # refused, and nothing kept
            with httpx.Client(base_url=base) as sue:
                answer = sue.post(ack, json=note, headers={"x-csrf-token": _logged_in(sue, "sue")})
            assert answer.status_code == 200 and answer.json()["acked"]["by"] == "sue", answer.text
    finally:
        broker.stop()
        store.close()
