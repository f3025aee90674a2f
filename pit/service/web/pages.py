"""The dashboard's pages: login, Floor, Table (live round and recall), Alerts, Reports (by table and by dealer).

Each handler reads what it shows from `PitData` and renders one template; the live parts are
fragments the pages fetch again when the event stream says their table or alert changed.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from dealer_assist.table.lockout import wrong_tries
from dealer_assist.text.round_story import story
from pit.service.floor.data import LoginRefused
from pit.service.web import params
from pit.service.web.access import CSRF_FIELD, LOGIN_CSRF_COOKIE, SESSION_COOKIE, Caller, same_token, set_cookie
from pit.service.web.context import Context
from pit.service.web.errors import WebCode, WebError, forbidden
from pit.service.web.live_view import live_round
from pit.service.web.report_view import Bar, bar_chart, rate_chart, slices, summary

RECALL_ROUNDS = 30
LOGIN_FORM_S = 3600


def login_url(request: Request) -> str:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return "/login?" + urlencode({"next": target})


def _safe_next(target: str | None) -> str:
    """Only a path on this site: a login must never send the user elsewhere."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _render(
    ctx: Context, request: Request, who: Caller | None, template: str, status: int = 200, **values: Any
) -> Response:
    return ctx.templates.TemplateResponse(
        request, template, {"who": who, "csrf_field": CSRF_FIELD, **values}, status_code=status
    )


def _secure(request: Request, ctx: Context) -> bool:
    """Secure cookies when served over TLS, or when told so (TLS ended by a proxy in front)."""
    return ctx.settings.secure_cookies or request.url.scheme == "https"


def _check_csrf(request: Request, who: Caller) -> dict[str, Any]:
    form: dict[str, Any] = request.state.payload
    if not who.csrf_ok(form.get(CSRF_FIELD)):
        raise forbidden("this form's CSRF token is missing or stale: reload the page and try again")
    return form


# --- access -------------------------------------------------------------------------------------


def login_form(request: Request, ctx: Context, message: str = "", locked: bool = False, status: int = 200) -> Response:
    token = secrets.token_urlsafe(32)
    response = _render(
        ctx,
        request,
        None,
        "login.html",
        status,
        login_csrf=token,
        message=message,
        locked=locked,
        next=_safe_next(request.query_params.get("next") or request.state.payload.get("next")),
        name=request.state.payload.get("name", ""),
    )
    set_cookie(response, LOGIN_CSRF_COOKIE, token, _secure(request, ctx), LOGIN_FORM_S)
    return response


def login(request: Request, ctx: Context) -> Response:
    form: dict[str, Any] = request.state.payload
    if not same_token(form.get(CSRF_FIELD), request.cookies.get(LOGIN_CSRF_COOKIE)):
        return login_form(
            request, ctx, "The login form had expired. Please enter your name and password again.", status=403
        )
    name, password = str(form.get("name", "")).strip(), str(form.get("password", ""))
    if not name or not password:
        return login_form(request, ctx, "Enter your name and your password.", status=400)
    source = request.client.host if request.client else "unknown"
    try:
        user = ctx.data.login(name, password, source)
    except LoginRefused as refused:
        if refused.locked_for > 0:
            text = (
                f"{name} is locked for {max(1, round(refused.locked_for))} s after {wrong_tries('passwords')}. "
                "Wait, then try again."
            )
            return login_form(request, ctx, text, locked=True, status=401)
        return login_form(request, ctx, refused.message, status=401)
    key, _ = ctx.sessions.open(user)
    response = RedirectResponse(_safe_next(form.get("next")), status_code=303)
    set_cookie(response, SESSION_COOKIE, key, _secure(request, ctx), round(ctx.settings.session_hours * 3600))
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/")
    return response


def logout(request: Request, who: Caller, ctx: Context) -> Response:
    _check_csrf(request, who)
    ctx.sessions.close(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# --- floor and table ----------------------------------------------------------------------------


def floor(request: Request, who: Caller, ctx: Context) -> Response:
    rows = ctx.data.tables()
    counts = {link: sum(row["link"] == link for row in rows) for link in ("live", "silent", "behind")}
    return _render(
        ctx, request, who, "floor.html", tables=rows, counts=counts, open_alerts=sum(row["open_alerts"] for row in rows)
    )


def _live(ctx: Context, table_id: str, room: str | None) -> dict[str, Any]:
    live = ctx.data.table_live(table_id, room)
    return {"t": live["status"], "live": live_round(live["round"])}


def table(request: Request, who: Caller, ctx: Context) -> Response:
    table_id, room = request.path_params["table_id"], params.room(request)
    values = _live(ctx, table_id, room)
    room = values["t"]["room"]  # named now in every link of the page, where rooms meet
    rounds = ctx.data.rounds(table_id, RECALL_ROUNDS, room)
    chosen = params.whole_number(
        request.query_params.get("round"), "round", rounds[0]["round_id"] if rounds else 0, 0, 2**62
    )
    recalled = ctx.data.round(table_id, chosen, room) if chosen else None
    return _render(
        ctx,
        request,
        who,
        "table.html",
        **values,
        rounds=rounds,
        chosen=chosen,
        recalled=recalled,
        story=story(recalled) if recalled else None,
        quote=quote,
        proofs=ctx.proofs,
    )


def table_live(request: Request, who: Caller, ctx: Context) -> Response:
    return _render(ctx, request, who, "_live.html", **_live(ctx, request.path_params["table_id"], params.room(request)))


# --- alerts -------------------------------------------------------------------------------------


def _alert_values(request: Request, ctx: Context) -> dict[str, Any]:
    query = request.query_params
    state = params.alert_state(query.get("state", "open"))
    table_id = query.get("table") or None
    kind = query.get("kind") or None
    listed = ctx.data.alerts(state, table_id, params.room(request))
    kinds = sorted({alert["kind"] for alert in listed} | ({kind} if kind else set()))
    shown = [alert for alert in listed if kind is None or alert["kind"] == kind]
    return {
        "alerts": shown,
        "state": state or "all",
        "table": table_id or "",
        "kind": kind or "",
        "kinds": kinds,
        "query": urlencode({key: value for key, value in query.items() if key in ("state", "table", "room", "kind")}),
    }


def alerts(request: Request, who: Caller, ctx: Context) -> Response:
    rooms = {row["table_id"]: row.get("room") for row in ctx.data.tables()}
    table_ids = list(rooms)
    return _render(ctx, request, who, "alerts.html", table_ids=table_ids, **_alert_values(request, ctx))


def alert_list(request: Request, who: Caller, ctx: Context) -> Response:
    return _render(ctx, request, who, "_alert_list.html", **_alert_values(request, ctx))


def acknowledge(request: Request, who: Caller, ctx: Context) -> Response:
    form = _check_csrf(request, who)
    ctx.data.acknowledge(request.path_params["alert_id"], who.user, params.note(form))
    back = str(form.get("back", ""))
    return RedirectResponse("/alerts" + (f"?{back}" if back and "/" not in back else ""), status_code=303)


# --- reports ------------------------------------------------------------------------------------


def _report_range(request: Request) -> tuple[datetime, datetime]:
    """A report's range from its form; by default the eight hours up to now."""
    query = request.query_params
    next_minute = (datetime.now(UTC) + timedelta(minutes=1)).replace(second=0, microsecond=0)  # up to now, inclusive
    return params.shift(query.get("from"), query.get("to"), next_minute)


def _range_values(start: datetime, end: datetime) -> dict[str, Any]:
    """What the report pages' range form and their links to each other show of the range."""
    return {"start": start, "end": end, "start_value": f"{start:%Y-%m-%dT%H:%M}", "end_value": f"{end:%Y-%m-%dT%H:%M}"}


def reports(request: Request, who: Caller, ctx: Context) -> Response:
    start, end = _report_range(request)
    table_id, room = request.query_params.get("table") or None, params.room(request)
    tables = [(row["table_id"], row.get("room")) for row in ctx.data.tables()]
    table_ids = list(dict.fromkeys(each for each, _ in tables))
    if table_id is not None and table_id not in table_ids:
        raise WebError(404, WebCode.NOT_FOUND, f"no table {table_id!r} on the floor")
    report = ctx.data.shift_report(table_id, start, end, room)
    if table_id is None:
        rows = [summary(each, start, end, ctx.data.shift_report(each, start, end, at), at) for each, at in tables]
        bars = [
            Bar(_named(row["table_id"], row["room"]), row["fees_players"], row["fees_player_dealer"]) for row in rows
        ]
        chart_title = "Drop by table"
    else:
        room = room or next(at for each, at in tables if each == table_id)
        rows = [summary(table_id, start, end, report, room)]
        bars = []
        for part_start, part_end in slices(start, end):
            fees = ctx.data.shift_report(table_id, part_start, part_end, room)["fees"]
            bars.append(Bar(f"{part_start:%H:%M}", fees["players"], fees["player_dealer"]))
        chart_title = f"Drop of {_named(table_id, room)} by hour"
    csv_query = urlencode(
        {
            "from": start.isoformat(),
            "to": end.isoformat(),
            "format": "csv",
            **({"table": table_id} if table_id else {}),
            **({"room": room} if table_id and room else {}),
        }
    )
    return _render(
        ctx,
        request,
        who,
        "reports.html",
        report=report,
        rows=rows,
        table=table_id or "",
        table_ids=table_ids,
        any_room=any(at for _, at in tables),
        chart=bar_chart(bars, chart_title),
        chart_title=chart_title,
        csv_url=f"/api/reports/shift?{csv_query}",
        **_range_values(start, end),
    )


def _named(table_id: str, room: str | None) -> str:
    """A table as a report names it: with its room where rooms meet."""
    return f"{room}/{table_id}" if room else table_id


def dealers_report(request: Request, who: Caller, ctx: Context) -> Response:
    """Per house dealer (RULES.md §8.25): a row each, their rounds per hour as a chart, and the CSV."""
    start, end = _report_range(request)
    report = ctx.data.dealer_report(start, end)
    rates = [
        (row["dealer"], row["rounds_per_hour"])
        for row in report["dealers"]
        if row["dealer"] is not None and row["rounds_per_hour"] is not None
    ]
    csv_query = urlencode({"from": start.isoformat(), "to": end.isoformat(), "format": "csv"})
    return _render(
        ctx,
        request,
        who,
        "dealers.html",
        report=report,
        chart=rate_chart(rates, "Rounds per hour by dealer") if rates else None,
        csv_url=f"/api/reports/dealers?{csv_query}",
        **_range_values(start, end),
    )
