"""The public log on the web (PIT.md §9): `/log/checkpoint` and `/log/tile/...` for anyone, no login, as
tlog-tiles serves them; `GET /api/proof/<journal>/<round_id>` for a logged-in caller (its route is guarded
like the rest of the API)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pit.service.log.reading import LogReader, NoLog
from pit.service.web.access import Caller
from pit.service.web.context import Context
from pit.service.web.errors import WebCode, WebError

IMMUTABLE = "public, max-age=31536000, immutable"  # a full tile never changes (tlog-tiles)
CHANGING = "no-cache"


def _plain(status: int, message: str) -> Response:
    return Response(message + "\n", status, media_type="text/plain", headers={"Cache-Control": "no-store"})


def public_routes(reader: LogReader) -> list[Route]:
    async def checkpoint(request: Request) -> Response:
        try:
            published = await run_in_threadpool(reader.published)
        except NoLog as error:
            return _plain(error.status, error.message)
        return Response(published.note, media_type="text/plain; charset=utf-8", headers={"Cache-Control": CHANGING})

    async def tile(request: Request) -> Response:
        try:
            data, full = await run_in_threadpool(reader.tile, "tile/" + request.path_params["path"])
        except NoLog as error:
            return _plain(error.status, error.message)
        return Response(
            data, media_type="application/octet-stream", headers={"Cache-Control": IMMUTABLE if full else CHANGING}
        )

    return [
        Route("/log/checkpoint", checkpoint, methods=["GET"]),
        Route("/log/tile/{path:path}", tile, methods=["GET"]),
    ]


def proof_handler(reader: LogReader) -> Callable[[Request, Caller, Context], Response]:
    """`GET /api/proof/<journal>/<round_id>`: the round's `round-proof-v1`; 409 while no published
    checkpoint covers it."""

    def handler(request: Request, who: Caller, ctx: Context) -> Response:
        try:
            proof = reader.round_proof(request.path_params["journal"], request.path_params["round_id"])
        except NoLog as error:
            code = WebCode.CONFLICT if error.status == 409 else WebCode.NOT_FOUND
            raise WebError(error.status, code, error.message) from None
        name = f"round-{proof['table_id']}-{proof['round_id']}.proof.json"
        return JSONResponse(
            proof, headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
        )

    return handler
