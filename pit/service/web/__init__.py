"""The pit's web dashboard and JSON API (PIT.md §6)."""
from __future__ import annotations

from pit.service.web.app import create_app
from pit.service.web.context import WebSettings
from pit.service.web.serve import parse_http, web_config

__all__ = ["WebSettings", "create_app", "parse_http", "web_config"]
