"""A test double for the pit's HTTP: the two witness calls of PIT.md §6, answered from a list of
(seq, hash) pairs taken from a real journal, behind a Bearer token. It stands in for `pit serve`
only in the tests of `journal verify --pit`'s client."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

TOKEN = "test-token"
PAGE = 50  # the double answers a page at a time, so the client's paging is exercised


class WitnessDouble:
    def __init__(self, journal: str, witnessed: list[tuple[int, str]], table_id: str = "T1") -> None:
        self.journal, self.witnessed, self.table_id = journal, witnessed, table_id
        double = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self._answer(401, {"error": {"code": "login_required", "message": "log in or give a token"}})
                parts = urlsplit(self.path)
                base = f"/api/witness/{double.journal}"
                if parts.path == base:
                    last = double.witnessed[-1] if double.witnessed else (0, None)
                    return self._answer(
                        200,
                        {"table_id": double.table_id, "journal": double.journal, "records": last[0], "head": last[1]},
                    )
                if parts.path == base + "/hashes":
                    since = int(parse_qs(parts.query).get("since", ["0"])[0])
                    page = [[seq, digest] for seq, digest in double.witnessed if seq > since][:PAGE]
                    return self._answer(200, {"hashes": page})
                return self._answer(404, {"error": {"code": "not_found", "message": f"no {parts.path}"}})

            def _answer(self, status: int, body: object) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> WitnessDouble:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
