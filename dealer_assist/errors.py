"""One error type for every refusal, so the CLI, the screens and the journal report it alike."""
from __future__ import annotations


class RuleError(Exception):
    """A bad input, named by a stable code, a message a person can act on, and the rule it breaks."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        return {"error": {"code": self.code, "message": self.message, "rule": self.rule}}
