"""The dashboard's pages over real bench rounds: floor tiles, the live round with its hole card
hidden, recall with the step-through and ledger, alerts acknowledged with a note, a shift report."""

from __future__ import annotations

import html
import json
import re
import threading

import pytest
from starlette.testclient import TestClient
from web_client import csrf_of, log_in

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import CardDrawn, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import BankAccepted, ShoeLoaded
from dealer_assist.text.journal_text import card_code
from pit.service.log.reading import LogReader
from pit.service.web.app import create_app


@pytest.fixture
def client(floor) -> TestClient:
    client = TestClient(create_app(floor))
    log_in(client, "sue")
    return client


def section(page: str, css_class: str) -> str:
    found = re.search(rf'<div class="{css_class}">(.*?)</div>', page, re.S)
    assert found, css_class
    return html.unescape(found.group(1))


def test_the_floor_has_a_tile_per_table_with_its_state(client):
    page = client.get("/").text
    tiles = re.findall(r'<a class="tile link-(\w+)" id="tile-([\w-]+)"', page)
    assert tiles == [("live", "T-1"), ("behind", "T-2"), ("silent", "T-3")]
    t2 = page[page.index('id="tile-T-2"') : page.index('id="tile-T-3"')]
    assert "nobust-4.0" in t2 and "behind · 1312" in t2 and "light light-down" in t2 and "1 open alert<" in t2
    assert "rounds/h" in t2 and "PD seat <b>8</b>" in t2


def test_the_live_round_hides_the_hole_card_until_it_is_revealed(client, journals):
    hole = next(
        op["card"]
        for record in read_records(journals / "T-3.db")
        if record.kind is RecordKind.INPUT
        for op in record.body["ops"]
        if op["type"] == "CardAssigned" and op["hidden"] and record.round_id == 4
    )
    live = client.get("/tables/T-3/live").text
    dealer = section(live, "dealer")
    assert "??" in dealer and card_code(hole) not in dealer
    assert "The hole card stays hidden" in live
    assert client.get("/tables/T-3").text.count('class="seat"') >= 1


def test_a_revealed_hole_card_shows(client):
    dealer = section(client.get("/tables/T-1/live").text, "dealer")
    assert "??" not in dealer and re.search(r'class="card[^"]*">[0-9JQKA]+[♠♥♦♣]<', dealer)


def test_recall_steps_through_every_input_with_the_itemized_ledger(client, floor):
    entry = floor.round("T-1", 3)
    page = client.get("/tables/T-1?round=3").text
    assert page.count('class="step"') == len(entry["inputs"])
    ledger = page[page.index("<h3>Ledger</h3>") : page.index("<h3>Devices")]
    assert ledger.count("<tr><td>") == len(entry["ledger"]["settlements"])
    assert 'href="/api/tables/T-1/rounds/3/round-file?download=1"' in page
    assert "Round 3 · closed" in page and 'aria-current="true"' in page


def test_with_a_public_log_each_closed_round_offers_its_proof_file_and_without_one_none(client, floor):
    rounds = floor.rounds("T-1", 20)
    assert "/api/proof/" not in client.get("/tables/T-1").text
    logged = TestClient(create_app(floor, log=LogReader(None)))  # the page reads nothing from the log itself
    log_in(logged, "sue")
    links = re.findall(
        r'<a class="proof" href="/api/proof/(\w+)/(\d+)" download>Proof file</a>', logged.get("/tables/T-1").text
    )
    assert links == [(r["journal"], str(r["round_id"])) for r in rounds] and links


def test_a_round_the_table_does_not_have_is_a_404_page(client):
    answer = client.get("/tables/T-1?round=99")
    assert answer.status_code == 404 and "no round 99" in answer.text
    assert client.get("/tables/T-9").status_code == 404


def test_alerts_filter_by_kind_and_a_supervisor_acknowledges_with_a_note(client, floor):
    page = client.get("/alerts?state=open&kind=large_payout").text
    assert page.count('class="alert open"') == 1 and "Seat 1 paid $1,010" in page
    answer = client.post(
        "/alerts/2/ack",
        data={"csrf": csrf_of(page), "note": "verified on camera 4", "back": "state=all"},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/alerts?state=all"
    shown = client.get("/alerts?state=acked").text
    assert "Acknowledged by <b>sue</b>" in shown and "verified on camera 4" in shown
    again = client.post("/alerts/2/ack", data={"csrf": csrf_of(page), "note": "twice"})
    assert again.status_code == 409 and "was acknowledged by sue" in again.text


def test_an_empty_note_is_refused_on_the_page(client, floor):
    page = client.get("/alerts").text
    answer = client.post("/alerts/1/ack", data={"csrf": csrf_of(page), "note": "  "})
    assert answer.status_code == 400 and "needs a note" in answer.text
    assert floor.alerts(state="acked") == []


def test_a_shift_report_has_a_row_per_table_a_chart_and_a_csv_link(floor):
    client = TestClient(create_app(floor))
    log_in(client, "meg")
    page = client.get("/reports?from=2000-01-01T00:00&to=2100-01-01T00:00").text
    assert [row for row in re.findall(r"<tr><td><a href=\"/reports\?table=([\w-]+)", page)] == ["T-1", "T-2", "T-3"]
    assert page.count("<rect") == 6  # two stacked bars per table
    assert 'href="/api/reports/shift?from=2000-01-01T00%3A00%3A00%2B00%3A00&amp;to=2100-01-01' in page
    one = client.get("/reports?table=T-2&from=2026-01-01T00:00&to=2026-01-01T08:00").text
    assert one.count("<rect") == 16 and "Drop of T-2 by hour" in one
    assert client.get("/reports?table=T-9").status_code == 404


def test_the_per_dealer_report_has_a_row_per_dealer_a_chart_of_their_pace_and_a_csv_link(floor):
    client = TestClient(create_app(floor))
    log_in(client, "meg")
    page = client.get("/reports/dealers?from=2000-01-01T00:00&to=2100-01-01T00:00").text
    rows = re.findall(r'<tr(?: class="no-dealer")?><th scope="row">([^<]+)</th>', page)
    assert rows == ["Ana R.", "Ben K.", "Cleo M.", "no dealer signed in"]
    assert page.count('class="rate"') == 3  # a bar for each dealer signed in; the rounds of nobody have no pace
    assert 'aria-label="Rounds per hour by dealer"' in page and "style=" not in page  # classes only, for the CSP
    assert "Taps are the dealer's own touchscreen inputs" in page and "not the devices' inputs" in page
    assert re.search(
        r'<p class="note" id="rounds-counted">Each round closed in the range counts once, for the dealer'
        r" signed in when its first card was dealt",
        page,
    ), "under the table: whose a relief's round is"
    assert 'href="/api/reports/dealers?from=2000-01-01T00%3A00%3A00%2B00%3A00&amp;to=2100-01-01' in page
    assert '<a href="/reports?from=2000-01-01T00:00&amp;to=2100-01-01T00:00" >By table</a>' in page
    shift = client.get("/reports?from=2000-01-01T00:00&to=2100-01-01T00:00").text
    assert '<a href="/reports/dealers?from=2000-01-01T00:00&amp;to=2100-01-01T00:00" >By dealer</a>' in shift
    empty = client.get("/reports/dealers?from=2001-01-01T00:00&to=2001-01-02T00:00").text
    assert "No rounds and no dealer signed in during this range." in empty and "<svg" not in empty


def test_the_per_dealer_report_is_a_managers(client):
    answer = client.get("/reports/dealers")
    assert answer.status_code == 403 and "reports are for managers" in answer.text


def test_the_report_of_the_last_eight_hours_holds_the_rounds_just_closed(floor):
    client = TestClient(create_app(floor))
    log_in(client, "meg")
    page = client.get("/reports").text
    first_row = re.search(r"table=T-1[^>]*>T-1</a></td><td>(\d+)</td>", page)
    assert first_row and int(first_row.group(1)) == 6


def test_the_event_stream_sends_a_changed_tables_tile(client, floor):
    stop = threading.Event()

    def change_until_heard() -> None:
        while not stop.wait(0.05):
            floor.set_status("T-2", phase="dealing", link="live", behind=0)

    changer = threading.Thread(target=change_until_heard)
    with client.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        changer.start()
        lines = stream.iter_lines()
        data = next(line for line in lines if line.startswith("data: "))
        stop.set()
    changer.join()
    change = json.loads(data[len("data: ") :])
    assert change["kind"] == "table" and change["table_id"] == "T-2"
    assert 'id="tile-T-2"' in change["html"] and "link-live" in change["html"] and "dealing" in change["html"]


def test_a_tables_page_counts_refused_inputs_apart_from_device_records_and_says_1_round(floor, tmp_path):
    table = Table.open(tmp_path / "T-9.db", TableConfig("T-9", "nobust-4.0"))
    for event in (
        ShoeLoaded("S-1", 6),
        BankAccepted(1, 50_000),
        PlaceWager(2, WagerKind.BASE, 1_000),
        NoMoreBets(),
        CardDrawn(parse_card("9H")),
    ):
        table.submit(event)
    table.note_device({"device": "shoe", "event": "link_down", "url": "socket://shoe:7000"})
    for refused in (PlaceWager(3, WagerKind.BUSTER, 50_000), PlaceWager(4, WagerKind.BASE, 500)):
        with pytest.raises(RuleError):
            table.submit(refused)
    table.close()
    floor.add_table("T-9", tmp_path / "T-9.db", rounds_per_hour=1)
    client = TestClient(create_app(floor))
    log_in(client, "sue")
    page = html.unescape(client.get("/tables/T-9?round=1").text)
    assert "<h3>Devices (1) · refused (2)</h3>" in page, "each count named for what it counts"
    assert "nobust-4.0 · 1 round/h ·" in page
    tile = client.get("/").text
    tile = tile[tile.index('id="tile-T-9"') :]
    assert "<b>1</b> round/h" in tile[: tile.index("</a>")]
