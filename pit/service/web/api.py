"""The JSON API of PIT.md §6: each call one `PitData` method, its answer passed through as JSON."""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pit.service.web import params
from pit.service.web.access import CSRF_HEADER, Caller
from pit.service.web.context import Context
from pit.service.web.errors import forbidden
from pit.service.web.report_view import DEALER_COLUMNS, SHIFT_COLUMNS, as_csv, dealer_lines, summary


def tables(request: Request, who: Caller, ctx: Context) -> Response:
    return JSONResponse(ctx.data.tables())


def rounds(request: Request, who: Caller, ctx: Context) -> Response:
    last = params.whole_number(request.query_params.get("last"), "last", 20, 1, params.MAX_ROUNDS)
    return JSONResponse(ctx.data.rounds(request.path_params["table_id"], last, params.room(request)))


def round_(request: Request, who: Caller, ctx: Context) -> Response:
    return JSONResponse(
        ctx.data.round(request.path_params["table_id"], request.path_params["round_id"], params.room(request))
    )


def round_file(request: Request, who: Caller, ctx: Context) -> Response:
    table_id, round_id = request.path_params["table_id"], request.path_params["round_id"]
    answer = ctx.data.round_file(table_id, round_id, params.room(request))
    headers = {}
    if request.query_params.get("download"):
        headers["content-disposition"] = f'attachment; filename="{table_id}-round-{round_id}.json"'
    return JSONResponse(answer, headers=headers)


def witness(request: Request, who: Caller, ctx: Context) -> Response:
    return JSONResponse(ctx.data.witness(request.path_params["journal"]))


def witnessed_hashes(request: Request, who: Caller, ctx: Context) -> Response:
    since = params.whole_number(request.query_params.get("since"), "since", 0, 0, 2**62)
    hashes = ctx.data.witnessed_hashes(request.path_params["journal"], since)
    return JSONResponse({"hashes": [[seq, digest] for seq, digest in hashes]})


def alerts(request: Request, who: Caller, ctx: Context) -> Response:
    state = params.alert_state(request.query_params.get("state"))
    return JSONResponse(ctx.data.alerts(state, request.query_params.get("table") or None, params.room(request)))


def acknowledge(request: Request, who: Caller, ctx: Context) -> Response:
    if not who.csrf_ok(request.headers.get(CSRF_HEADER)):
        raise forbidden(f"a call made with a login session needs its CSRF token in the {CSRF_HEADER} header")
    return JSONResponse(
        ctx.data.acknowledge(request.path_params["alert_id"], who.user, params.note(request.state.payload))
    )


def shift_report(request: Request, who: Caller, ctx: Context) -> Response:
    query = request.query_params
    start, end = params.shift(query.get("from"), query.get("to"), datetime.now(UTC))
    table_id, room = query.get("table") or None, params.room(request)
    if params.report_format(query.get("format")) == "json":
        return JSONResponse(ctx.data.shift_report(table_id, start, end, room))
    tables = [(row["table_id"], row.get("room")) for row in ctx.data.tables()]
    ids = [(table_id, room)] if table_id else tables
    rows = [summary(each, start, end, ctx.data.shift_report(each, start, end, at), at) for each, at in ids]
    return _csv(as_csv(rows, SHIFT_COLUMNS), f"shift-{table_id or 'all'}", start, end)


def dealer_report(request: Request, who: Caller, ctx: Context) -> Response:
    query = request.query_params
    start, end = params.shift(query.get("from"), query.get("to"), datetime.now(UTC))
    report = ctx.data.dealer_report(start, end)
    if params.report_format(query.get("format")) == "json":
        return JSONResponse(report)
    return _csv(as_csv(dealer_lines(start, end, report), DEALER_COLUMNS), "dealers", start, end)


def _csv(text: str, what: str, start: datetime, end: datetime) -> Response:
    name = f"{what}-{start:%Y%m%dT%H%M}-{end:%Y%m%dT%H%M}.csv"
    return Response(
        text, media_type="text/csv; charset=utf-8", headers={"content-disposition": f'attachment; filename="{name}"'}
    )
