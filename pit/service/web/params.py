"""Query parameters and bodies read once, each refusal naming the parameter that was wrong (400)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from pit.service.web.errors import WebCode, WebError, bad_request

ROOM = re.compile(r"[A-Za-z0-9_-]{1,32}")

ALERT_STATES = ("open", "acked")
MAX_ROUNDS = 1000
MAX_NOTE = 500
MAX_BODY = 64 * 1024  # far more than any form or call of the pit needs
SHIFT = timedelta(hours=8)


def whole_number(raw: str | None, name: str, default: int, low: int, high: int) -> int:
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise bad_request(WebCode.BAD_PARAMETER, f"{name}={raw!r}: use a whole number from {low} to {high}")
    return int(raw)


def room(request: Request) -> str | None:
    """`?room=NAME`: where rooms meet (a head office) a table is (room, id), and an id two rooms use
    needs its room named."""
    raw = request.query_params.get("room") or None
    if raw is not None and not ROOM.fullmatch(raw):
        raise bad_request(WebCode.BAD_PARAMETER, f"room={raw!r}: a room's name is 1-32 characters A-Z a-z 0-9 _ -")
    return raw


def alert_state(raw: str | None) -> str | None:
    if raw in (None, "", "all"):
        return None
    if raw not in ALERT_STATES:
        raise bad_request(WebCode.BAD_PARAMETER, f"state={raw!r}: use open or acked")
    return raw


def moment(raw: str | None, name: str, default: datetime) -> datetime:
    """An ISO 8601 date-time; one without a zone is taken as UTC, as the journals keep time."""
    if raw is None or raw == "":
        return default
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise bad_request(WebCode.BAD_PARAMETER, f"{name}={raw!r} is not an ISO 8601 date-time") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def shift(raw_from: str | None, raw_to: str | None, now: datetime) -> tuple[datetime, datetime]:
    """The report's range; without one, the last eight hours."""
    end = moment(raw_to, "to", now)
    start = moment(raw_from, "from", end - SHIFT)
    if start >= end:
        raise bad_request(WebCode.BAD_PARAMETER, f"from={start.isoformat()} is not before to={end.isoformat()}")
    return start, end


def report_format(raw: str | None) -> str:
    """A report's answer: JSON unless CSV is asked for."""
    if raw in (None, "", "json"):
        return "json"
    if raw != "csv":
        raise bad_request(WebCode.BAD_PARAMETER, f"format={raw!r}: use json or csv")
    return raw


def note(body: Any) -> str:
    """An acknowledgement's note: required, kept forever, so it must say something."""
    text = body.get("note") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text.strip():
        raise bad_request(WebCode.NOTE_REQUIRED, "an acknowledgement needs a note saying what was done")
    if len(text) > MAX_NOTE:
        raise bad_request(WebCode.NOTE_TOO_LONG, f"the note has {len(text)} characters; at most {MAX_NOTE}")
    return text.strip()


async def payload(request: Request) -> dict[str, Any]:
    """A POST's form fields or JSON object, read before the handler runs in the thread pool."""
    if request.method != "POST":
        return {}
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise _too_large(int(declared))
    raw = b""
    async for chunk in request.stream():  # read no further than the limit, whatever the header said
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _too_large(len(raw))
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind == "application/x-www-form-urlencoded":  # the pages' forms
        try:
            return dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=False))
        except UnicodeDecodeError:
            raise bad_request(WebCode.BAD_BODY, "the form is not UTF-8 text") from None
    if kind == "multipart/form-data":
        raise bad_request(WebCode.BAD_BODY, "send a form as application/x-www-form-urlencoded, or a JSON object")
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise bad_request(WebCode.BAD_BODY, 'the body is not JSON: send an object such as {"note": "..."}') from None
    if not isinstance(body, dict):
        raise bad_request(WebCode.BAD_BODY, "the body is not a JSON object")
    return body


def _too_large(size: int) -> WebError:
    return WebError(413, WebCode.BODY_TOO_LARGE, f"the body has {size} bytes or more; at most {MAX_BODY}")
