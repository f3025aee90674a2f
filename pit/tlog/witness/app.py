"""The witness on HTTP: `POST /add-checkpoint` and `GET /<origin hash>/checkpoint` (tlog-witness)."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from pit.tlog.witness.request import MAX_BODY
from pit.tlog.witness.witness import Answer, Witness


def _response(answer: Answer) -> Response:
    """The answer with its Content-Type exactly as given (Starlette would add a charset to 409's `text/x.tlog.size`)."""
    return Response(answer.body, answer.status, headers={"Content-Type": answer.content_type})


def create_witness_app(witness: Witness) -> Starlette:
    async def add_checkpoint(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                break
        return _response(await run_in_threadpool(witness.add_checkpoint, body))

    async def checkpoint(request: Request) -> Response:
        return _response(await run_in_threadpool(witness.checkpoint, request.path_params["origin_hash"]))

    return Starlette(
        routes=[
            Route("/add-checkpoint", add_checkpoint, methods=["POST"]),
            Route("/{origin_hash:str}/checkpoint", checkpoint, methods=["GET"]),
        ]
    )
