"""The JSON API of PIT.md §6 over a test double of the store built from real bench journals."""

from __future__ import annotations

import csv
import io

import pytest
from memory_pit import MemoryPitData
from starlette.testclient import TestClient
from web_bench import SUPERVISOR_TOKEN, TOKEN, floor_data
from web_client import log_in, session_csrf

from dealer_assist.journal.journal_file import read_records
from dealer_assist.play.round_file import settle_round
from pit.errors import BadValue
from pit.service.floor.data import NotAllowed
from pit.service.floor.dealing import DEALER_TAPS
from pit.service.web.app import create_app

TABLE_KEYS = {
    "table_id",
    "room",
    "profile",
    "round_id",
    "phase",
    "player_dealer",
    "rounds_per_hour",
    "link",
    "behind",
    "refused",
    "missing",
    "devices",
    "open_alerts",
    "last_seen",
}
ALERT_KEYS = {"id", "table_id", "kind", "round_id", "seq", "raised", "text", "acked", "cleared"}
DEALER_KEYS = {
    "dealer",
    "tables",
    "hours",
    "rounds",
    "rounds_per_hour",
    "taps",
    "taps_per_round",
    "late_changes",
    "mispays",
}
WIDE = {"from": "2000-01-01T00:00:00+00:00", "to": "2100-01-01T00:00:00+00:00"}


def bearer(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def journal_of(floor: MemoryPitData, table_id: str) -> str:
    return floor.rounds(table_id, 1)[0]["journal"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables",
        "/api/tables/T-1/rounds",
        "/api/tables/T-1/rounds/1",
        "/api/tables/T-1/rounds/1/round-file",
        "/api/witness/abc",
        "/api/witness/abc/hashes",
        "/api/alerts",
        "/api/reports/shift",
        "/api/reports/dealers",
        "/api/events",
    ],
)
def test_every_call_without_a_login_or_token_is_401_with_an_error_object(client, path):
    answer = client.get(path)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "login_required"
    assert client.get(path, headers=bearer("not-a-token")).status_code == 401


def test_an_acknowledgement_without_a_login_is_401(client):
    answer = client.post("/api/alerts/1/ack", json={"note": "seen"})
    assert answer.status_code == 401 and set(answer.json()["error"]) == {"code", "message"}


def test_tables_answer_one_row_per_table_in_the_shape_of_the_spec(client, floor):
    rows = client.get("/api/tables", headers=bearer()).json()
    assert [row["table_id"] for row in rows] == ["T-1", "T-2", "T-3"]
    assert all(set(row) == TABLE_KEYS for row in rows)
    assert {row["table_id"]: row["link"] for row in rows} == {"T-1": "live", "T-2": "behind", "T-3": "silent"}
    assert set(rows[0]["player_dealer"]) == {"seat", "bank", "turn"}


def test_rounds_are_the_last_n_closed_newest_first(client):
    rounds = client.get("/api/tables/T-1/rounds?last=3", headers=bearer()).json()
    assert [r["round_id"] for r in rounds] == [6, 5, 4]
    assert set(rounds[0]) == {"round_id", "journal", "opened", "closed", "player_dealer_net", "fees"}
    assert rounds[0]["closed"] >= rounds[0]["opened"]


@pytest.mark.parametrize("last", ["0", "-1", "two", "100000"])
def test_a_bad_last_is_400_naming_it(client, last):
    answer = client.get(f"/api/tables/T-1/rounds?last={last}", headers=bearer())
    assert answer.status_code == 400 and "last=" in answer.json()["error"]["message"]


def test_an_unknown_table_round_or_journal_is_404(client):
    for path in (
        "/api/tables/T-9/rounds",
        "/api/tables/T-1/rounds/99",
        "/api/tables/T-1/rounds/99/round-file",
        "/api/witness/" + "0" * 64,
        "/api/alerts/99/ack",
    ):
        answer = client.request(
            "POST" if path.endswith("ack") else "GET", path, headers=bearer(SUPERVISOR_TOKEN), json={"note": "x"}
        )
        assert answer.status_code == 404, path
        assert answer.json()["error"]["code"] == "not_found"


def test_a_round_carries_its_inputs_operations_evidence_and_ledger(client, floor):
    answer = client.get("/api/tables/T-1/rounds/2", headers=bearer()).json()
    assert answer["round_id"] == 2 and answer["table_id"] == "T-1" and answer["journal"] == journal_of(floor, "T-1")
    assert answer["ledger"]["format"] == "ledger-v1"
    assert answer["inputs"] and answer["operations"]
    assert {"devices", "corrections", "refused"} <= set(answer)


def test_the_round_file_settles_to_the_ledger_the_table_recorded(client):
    recorded = client.get("/api/tables/T-1/rounds/3", headers=bearer()).json()["ledger"]
    answer = client.get("/api/tables/T-1/rounds/3/round-file?download=1", headers=bearer())
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="T-1-round-3.json"'
    round_file = answer.json()
    assert round_file["format"] == "round-v1"
    assert settle_round(round_file) == recorded


def test_the_witness_names_the_head_and_lists_hashes_after_since(client, floor, journals):
    journal = journal_of(floor, "T-2")
    records = list(read_records(journals / "T-2.db"))
    witness = client.get(f"/api/witness/{journal}", headers=bearer()).json()
    assert witness == {
        "table_id": "T-2",
        "journal": journal,
        "records": records[-1].seq,
        "head": records[-1].hash.hex(),
        "missing": None,
    }
    hashes = client.get(f"/api/witness/{journal}/hashes?since=10", headers=bearer()).json()["hashes"]
    assert hashes[0] == [11, records[10].hash.hex()] and hashes[-1] == [records[-1].seq, records[-1].hash.hex()]
    assert client.get(f"/api/witness/{journal}/hashes?since=x", headers=bearer()).status_code == 400


def test_alerts_filter_by_state_and_table(client, floor):
    everything = client.get("/api/alerts", headers=bearer()).json()
    assert len(everything) == 3 and all(set(alert) == ALERT_KEYS for alert in everything)
    assert [a["table_id"] for a in client.get("/api/alerts?table=T-2", headers=bearer()).json()] == ["T-2"]
    floor.acknowledge(1, floor.token_user(SUPERVISOR_TOKEN), "checked the cable")
    assert [a["id"] for a in client.get("/api/alerts?state=acked", headers=bearer()).json()] == [1]
    assert 1 not in [a["id"] for a in client.get("/api/alerts?state=open", headers=bearer()).json()]
    answer = client.get("/api/alerts?state=closed", headers=bearer())
    assert answer.status_code == 400 and "state=" in answer.json()["error"]["message"]


def test_surveillance_reads_but_its_acknowledgement_is_403_and_changes_nothing(client, floor):
    answer = client.post("/api/alerts/2/ack", headers=bearer(TOKEN), json={"note": "seen"})
    assert answer.status_code == 403
    assert "surveillance" in answer.json()["error"]["message"]
    assert floor.alerts()[1]["acked"] is None  # alerts come newest first: id 2 is the second


def test_a_supervisor_acknowledges_once_with_a_note_and_a_second_time_is_409(client):
    answer = client.post(
        "/api/alerts/2/ack", headers=bearer(SUPERVISOR_TOKEN), json={"note": "  paid, checked on camera "}
    )
    assert answer.status_code == 200
    acked = answer.json()
    assert (
        set(acked) == ALERT_KEYS
        and acked["acked"]["by"] == "sue"
        and acked["acked"]["note"] == "paid, checked on camera"
    )
    again = client.post("/api/alerts/2/ack", headers=bearer(SUPERVISOR_TOKEN), json={"note": "again"})
    assert again.status_code == 409 and "sue" in again.json()["error"]["message"]


@pytest.mark.parametrize("body", [{}, {"note": ""}, {"note": "   "}, {"note": 5}, {"note": "x" * 501}])
def test_an_acknowledgement_without_a_usable_note_is_400(client, floor, body):
    answer = client.post("/api/alerts/2/ack", headers=bearer(SUPERVISOR_TOKEN), json=body)
    assert answer.status_code == 400 and answer.json()["error"]["code"].startswith("note_")
    assert all(alert["acked"] is None for alert in floor.alerts())


def test_a_body_that_is_not_json_is_400(client):
    answer = client.post(
        "/api/alerts/2/ack", headers={**bearer(SUPERVISOR_TOKEN), "content-type": "application/json"}, content=b"{note"
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_body"


def test_a_session_call_that_changes_something_needs_its_csrf_token(client, floor):
    log_in(client, "sue")
    refused = client.post("/api/alerts/2/ack", json={"note": "seen"})
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]["message"]
    assert floor.alerts()[1]["acked"] is None
    token = session_csrf(client)
    accepted = client.post("/api/alerts/2/ack", json={"note": "seen"}, headers={"x-csrf-token": token})
    assert accepted.status_code == 200 and accepted.json()["acked"]["by"] == "sue"


@pytest.mark.parametrize("path", ["/api/reports/shift", "/api/reports/dealers"])
def test_reports_are_for_managers(client, path):
    assert client.get(path, headers=bearer(TOKEN)).status_code == 403
    refused = client.get(path, headers=bearer(SUPERVISOR_TOKEN))
    assert (
        refused.status_code == 403
        and refused.json()["error"]["message"] == "sue is supervisor: reports are for managers"
    )


def test_a_shift_report_in_json_and_csv(client, floor):
    log_in(client, "meg")
    report = client.get("/api/reports/shift", params={**WIDE, "table": "T-1"}).json()
    assert set(report) == {"rounds", "fees", "player_dealer_net", "largest_payouts", "corrections"}
    assert report["rounds"] == 6 and set(report["fees"]) == {"players", "player_dealer"}
    answer = client.get("/api/reports/shift", params={**WIDE, "format": "csv"})
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"].startswith('attachment; filename="shift-all-')
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [row["table_id"] for row in rows] == ["T-1", "T-2", "T-3"]
    assert int(rows[0]["rounds"]) == 6
    assert float(rows[0]["drop"]) == pytest.approx(report["fees"]["players"] + report["fees"]["player_dealer"])
    whole = floor.shift_report(None, *(__import__("datetime").datetime.fromisoformat(WIDE[k]) for k in ("from", "to")))
    assert sum(float(row["drop"]) for row in rows) == pytest.approx(
        whole["fees"]["players"] + whole["fees"]["player_dealer"]
    )


def test_the_per_dealer_report_in_json_and_csv(client, floor, journals):
    """T-1's first three rounds dealt by Ana R., the next three by Ben K. who relieved her; T-2's by
    Cleo M.; T-3's with nobody signed in."""
    log_in(client, "meg")
    report = client.get("/api/reports/dealers", params=WIDE).json()
    assert set(report) == {"dealers", "taps_counted", "rounds_counted"} and "PlaceWager" in report["taps_counted"]
    assert "for the dealer signed in when its first card was dealt" in report["rounds_counted"]
    rows = {row["dealer"]: row for row in report["dealers"]}
    assert list(rows) == ["Ana R.", "Ben K.", "Cleo M.", None]
    assert all(set(row) == DEALER_KEYS for row in rows.values())
    assert [(rows[name]["tables"], rows[name]["rounds"]) for name in rows] == [
        (["T-1"], 3),
        (["T-1"], 3),
        (["T-2"], 4),
        (["T-3"], 3),
    ]
    taps = _taps(journals / "T-1.db")
    assert (rows["Ana R."]["taps"], rows["Ben K."]["taps"]) == (taps["Ana R."], taps["Ben K."])
    ana = rows["Ana R."]
    assert ana["taps_per_round"] == round(ana["taps"] / 3, 1) and ana["hours"] >= 0 and ana["rounds_per_hour"] > 0
    assert rows[None]["hours"] is None and rows[None]["rounds_per_hour"] is None
    assert all(row["late_changes"] == row["mispays"] == 0 for row in rows.values())  # no wager reader at these tables

    answer = client.get("/api/reports/dealers", params={**WIDE, "format": "csv"})
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == 'attachment; filename="dealers-20000101T0000-21000101T0000.csv"'
    lines = list(csv.DictReader(io.StringIO(answer.text)))
    assert [line["dealer"] for line in lines] == ["Ana R.", "Ben K.", "Cleo M.", "no dealer signed in"]
    assert lines[0]["tables"] == "T-1" and int(lines[0]["taps"]) == ana["taps"] and lines[3]["rounds_per_hour"] == ""
    assert lines[0]["from"] == WIDE["from"] and float(lines[0]["rounds_per_hour"]) == ana["rounds_per_hour"]


def _taps(path) -> dict[str | None, int]:
    """The dealer's own inputs in the journal, by who was signed in, counted here from the records."""
    taps: dict[str | None, int] = {}
    dealer = None
    for record in read_records(path):
        if record.kind.value not in ("input", "close", "refused"):
            continue
        for op in record.body.get("ops", []):
            dealer = (
                op["dealer"] if op["type"] == "DealerSignedIn" else None if op["type"] == "DealerSignedOut" else dealer
            )
        if record.body["input"]["type"] in DEALER_TAPS:
            taps[dealer] = taps.get(dealer, 0) + 1
    return taps


@pytest.mark.parametrize("path", ["/api/reports/shift", "/api/reports/dealers"])
@pytest.mark.parametrize(
    "query",
    [
        {"from": "yesterday"},
        {"to": "2026-13-01"},
        {"from": "2026-01-02T00:00", "to": "2026-01-01T00:00"},
        {"format": "xml"},
    ],
)
def test_a_bad_report_range_or_format_is_400(client, path, query):
    log_in(client, "meg")
    answer = client.get(path, params=query)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_parameter"


def test_an_unknown_api_path_is_a_json_404(client):
    answer = client.get("/api/nothing", headers=bearer())
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


class RefusingStore(MemoryPitData):
    """The store refuses as PostgreSQL's does: a value it will not take, a user it will not let."""

    def alerts(self, state=None, table_id=None, room=None):  # type: ignore[no-untyped-def]
        raise BadValue(f"state {state!r}: use open or acked")

    def acknowledge(self, alert_id, user, note):  # type: ignore[no-untyped-def]
        raise NotAllowed(f"{user.name} may not acknowledge")


def test_the_stores_own_refusals_answer_400_and_403(journals):
    data = RefusingStore()
    data.add_token(SUPERVISOR_TOKEN, "sue", floor_data(journals).token_user(SUPERVISOR_TOKEN).role)
    client = TestClient(create_app(data))
    answer = client.get("/api/alerts", headers=bearer(SUPERVISOR_TOKEN))
    assert answer.status_code == 400 and answer.json()["error"]["message"] == "state None: use open or acked"
    answer = client.post("/api/alerts/1/ack", headers=bearer(SUPERVISOR_TOKEN), json={"note": "seen"})
    assert answer.status_code == 403 and answer.json()["error"]["message"] == "sue may not acknowledge"
