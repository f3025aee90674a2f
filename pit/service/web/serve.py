"""How `pit serve` puts the dashboard on the network: HOST:PORT, and HTTPS when given a certificate
and key (cookies are then Secure, so a session never travels in clear)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

from dealer_assist.errors import CommandCode, CommandError
from pit.address import parse_address
from pit.service.floor.data import PitData
from pit.service.log.reading import LogReader
from pit.service.web.app import create_app
from pit.service.web.context import WebSettings

__all__ = ["web_config"]

STOP_S = 2  # open event streams never end by themselves: at a stop, they are cut after this


def web_config(
    data: PitData,
    http: str,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
    health: Callable[[], dict[str, Any]] | None = None,
    log: LogReader | None = None,
) -> uvicorn.Config:
    """The dashboard's server, to run with `uvicorn.Server(config).serve()` beside the ingest, whose
    `health` answers GET /api/health."""
    if (tls_cert is None) != (tls_key is None):
        raise CommandError(
            CommandCode.BAD_ARGUMENTS, "--tls-cert and --tls-key go together: give both for HTTPS, or neither"
        )
    for path in (tls_cert, tls_key):
        if path is not None and not path.is_file():
            raise CommandError(CommandCode.UNREADABLE_FILE, f"{path}: no such file")
    host, port = parse_address(http)
    app = create_app(data, WebSettings(secure_cookies=tls_cert is not None), health, log)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=STOP_S,
        ssl_certfile=str(tls_cert) if tls_cert else None,
        ssl_keyfile=str(tls_key) if tls_key else None,
    )
