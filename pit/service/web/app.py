"""The pit's web dashboard and JSON API (PIT.md §6) over `PitData`, as one Starlette application.

Every page and API call needs a login session or a bearer token; every POST made with a session
needs that session's CSRF token. Data calls are synchronous, so handlers are plain functions run in
the thread pool, with the request's form or JSON body read before; only the event stream is asynchronous.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pit.errors import BadValue, PitError
from pit.service.floor.data import ACKNOWLEDGE, ANYONE, REPORTS, Allowed, Conflict, NotAllowed, NotFound, PitData
from pit.service.log.reading import LogReader
from pit.service.web import api, events, log_routes, pages
from pit.service.web.access import Caller, Sessions, caller
from pit.service.web.context import Context, WebSettings
from pit.service.web.errors import WebCode, WebError, forbidden, not_logged_in
from pit.service.web.headers import SecurityHeaders
from pit.service.web.params import payload
from pit.service.web.templating import templates

HERE = Path(__file__).parent
STATUS: dict[type[PitError], tuple[int, WebCode]] = {  # the API's codes, the same values on the wire as before
    NotFound: (404, WebCode.NOT_FOUND),
    Conflict: (409, WebCode.CONFLICT),
    NotAllowed: (403, WebCode.FORBIDDEN),
    BadValue: (400, WebCode.BAD_REQUEST),
}


Handler = Callable[[Request, Caller, Context], Response]


def create_app(
    data: PitData,
    settings: WebSettings | None = None,
    health: Callable[[], dict[str, Any]] | None = None,
    log: LogReader | None = None,
) -> Starlette:
    """`health`, when given, answers GET /api/health without a login (PIT.md §8: for a load balancer
    or a monitor); `log`, the room's public log under /log/ and its proofs (PIT.md §9)."""
    settings = settings or WebSettings()
    ctx = Context(
        data, Sessions(settings.session_hours * 3600), templates(HERE / "templates"), settings, proofs=log is not None
    )

    def guarded(handler: Handler, page: bool, allowed: Allowed = ANYONE) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            who: Caller | None = None
            try:
                who = await run_in_threadpool(caller, request, ctx.sessions, ctx.data)
                if who is None:
                    if page:
                        return RedirectResponse(pages.login_url(request), status_code=303)
                    raise not_logged_in()
                if who.user.role not in allowed.roles:
                    raise forbidden(f"{who.user.name} is {who.user.role.value}: {allowed.says}")
                request.state.payload = await payload(request)
                return await run_in_threadpool(handler, request, who, ctx)
            except PitError as error:  # the store's refusal, as the HTTP status its kind calls for
                status, code = STATUS.get(type(error), (400, WebCode.BAD_REQUEST))
                return _refusal(ctx, request, who, WebError(status, code, error.message), page)
            except WebError as error:
                return _refusal(ctx, request, who, error, page)

        return endpoint

    def open_route(handler: Callable[[Request, Context], Response]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                request.state.payload = await payload(request)
            except WebError as error:
                return _refusal(ctx, request, None, error, True)
            return await run_in_threadpool(handler, request, ctx)

        return endpoint

    routes = [
        Route("/login", open_route(pages.login_form), methods=["GET"]),
        Route("/login", open_route(pages.login), methods=["POST"]),
        Route("/logout", guarded(pages.logout, page=True), methods=["POST"]),
        Route("/", guarded(pages.floor, page=True)),
        Route("/tables/{table_id}", guarded(pages.table, page=True)),
        Route("/tables/{table_id}/live", guarded(pages.table_live, page=True)),
        Route("/alerts", guarded(pages.alerts, page=True)),
        Route("/alerts/list", guarded(pages.alert_list, page=True)),
        Route(
            "/alerts/{alert_id:int}/ack", guarded(pages.acknowledge, page=True, allowed=ACKNOWLEDGE), methods=["POST"]
        ),
        Route("/reports", guarded(pages.reports, page=True, allowed=REPORTS)),
        Route("/reports/dealers", guarded(pages.dealers_report, page=True, allowed=REPORTS)),
        Route("/api/tables", guarded(api.tables, page=False)),
        Route("/api/tables/{table_id}/rounds", guarded(api.rounds, page=False)),
        Route("/api/tables/{table_id}/rounds/{round_id:int}", guarded(api.round_, page=False)),
        Route("/api/tables/{table_id}/rounds/{round_id:int}/round-file", guarded(api.round_file, page=False)),
        Route("/api/witness/{journal}", guarded(api.witness, page=False)),
        Route("/api/witness/{journal}/hashes", guarded(api.witnessed_hashes, page=False)),
        Route("/api/alerts", guarded(api.alerts, page=False)),
        Route(
            "/api/alerts/{alert_id:int}/ack",
            guarded(api.acknowledge, page=False, allowed=ACKNOWLEDGE),
            methods=["POST"],
        ),
        Route("/api/reports/shift", guarded(api.shift_report, page=False, allowed=REPORTS)),
        Route("/api/reports/dealers", guarded(api.dealer_report, page=False, allowed=REPORTS)),
        Route("/api/events", events.endpoint(ctx, events.Broadcast(ctx))),
        *([Route("/api/health", _health(health))] if health is not None else []),
        *(
            [
                Route("/api/proof/{journal}/{round_id:int}", guarded(log_routes.proof_handler(log), page=False)),
                *log_routes.public_routes(log),
            ]
            if log is not None
            else []
        ),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={404: _unknown_path, 405: _wrong_method},
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.ctx = ctx
    return app


def _health(health: Callable[[], dict[str, Any]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return JSONResponse(health(), headers={"cache-control": "no-store"})

    return endpoint


def _refusal(ctx: Context, request: Request, who: Caller | None, error: WebError, page: bool) -> Response:
    if not page:
        return JSONResponse(error.to_json(), status_code=error.status)
    return ctx.templates.TemplateResponse(
        request, "refused.html", {"who": who, "error": error}, status_code=error.status
    )


def _unknown_path(request: Request, _: Exception) -> Response:
    error = WebError(404, WebCode.NOT_FOUND, f"no page or API call at {request.url.path}")
    if request.url.path.startswith("/api/"):
        return JSONResponse(error.to_json(), status_code=404)
    return HTMLResponse(
        f"<h1>Not found</h1><p>{escape(error.message)}</p><p><a href='/'>Floor</a></p>", status_code=404
    )


def _wrong_method(request: Request, _: Exception) -> Response:
    error = WebError(405, WebCode.METHOD_NOT_ALLOWED, f"{request.method} is not served at {request.url.path}")
    return JSONResponse(error.to_json(), status_code=405)
