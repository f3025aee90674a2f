"""What every handler of the web layer needs: the data, the open sessions, the templates, the settings."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.templating import Jinja2Templates

from pit.service.floor.data import PitData
from pit.service.web.access import Sessions


@dataclass(frozen=True, slots=True)
class WebSettings:
    secure_cookies: bool = False  # True behind a proxy that ends TLS; served over HTTPS they are Secure anyway
    session_hours: float = 12.0  # a pit shift and some


@dataclass(frozen=True, slots=True)
class Context:
    data: PitData
    sessions: Sessions
    templates: Jinja2Templates
    settings: WebSettings
    proofs: bool = False  # the room keeps a public log: each closed round's proof file is offered
