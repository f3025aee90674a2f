"""The web layer's refusals: one exception with its HTTP status and a code, rendered as PIT.md §6's
`{"error": {"code", "message"}}` for the API and as a plain page for a person."""
from __future__ import annotations


class WebError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}


def bad_request(code: str, message: str) -> WebError:
    return WebError(400, code, message)


def not_logged_in() -> WebError:
    return WebError(401, "login_required", "log in, or send Authorization: Bearer TOKEN")


def forbidden(message: str) -> WebError:
    return WebError(403, "forbidden", message)
