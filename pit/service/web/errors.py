"""The web layer's refusals: one exception with its HTTP status and a code, rendered as PIT.md §6's
`{"error": {"code", "message"}}` for the API and as a plain page for a person."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure


class WebCode(StrEnum):
    """The API's error codes, as a program reading `{"error": {"code"}}` checks them."""

    LOGIN_REQUIRED = "login_required"
    BAD_PARAMETER = "bad_parameter"
    NOTE_REQUIRED = "note_required"
    NOTE_TOO_LONG = "note_too_long"
    BAD_BODY = "bad_body"
    BODY_TOO_LARGE = "body_too_large"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    FORBIDDEN = "forbidden"
    BAD_REQUEST = "bad_request"
    METHOD_NOT_ALLOWED = "method_not_allowed"


class WebError(Failure):
    """A request refused, with the HTTP status its kind calls for."""

    def __init__(self, status: int, code: WebCode, message: str) -> None:
        super().__init__(code, message)
        self.status = status


def bad_request(code: WebCode, message: str) -> WebError:
    return WebError(400, code, message)


def not_logged_in() -> WebError:
    return WebError(401, WebCode.LOGIN_REQUIRED, "log in, or send Authorization: Bearer TOKEN")


def forbidden(message: str) -> WebError:
    return WebError(403, WebCode.FORBIDDEN, message)
