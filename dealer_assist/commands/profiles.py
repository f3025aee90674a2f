"""`dealer-assist profiles [NAME]`: list the rule profiles, or show one with its sources."""

from __future__ import annotations

import json
from typing import Any

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.rules.profile import MONEY_SETTINGS, load_profile, profile_names, profile_sources
from dealer_assist.text.record_words import amount_text


def main(argv: list[str]) -> int:
    return reporting(lambda: _profiles(argv), Stream.STDOUT, rule=True)


def _profiles(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist profiles", description="Rule profiles shipped with dealer-assist.")
    parser.add_argument("name", nargs="?", help="show this profile's settings")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.name is None:
        rows = [(name, load_profile(name)) for name in profile_names()]
        if args.json:
            print(json.dumps([{"id": p.id, "title": p.title, "hash": p.content_hash} for _, p in rows], indent=2))
        else:
            for name, profile in rows:
                print(f"{name:<13} {profile.title}  [{profile.content_hash[:12]}]")
        return 0
    profile = load_profile(args.name)
    sources = profile_sources(args.name)
    settings = profile.settings()
    if args.json:
        print(
            json.dumps(
                {
                    "id": profile.id,
                    "title": profile.title,
                    "hash": profile.content_hash,
                    "settings": settings,
                    "sources": sources,
                },
                indent=2,
            )
        )
        return 0
    print(f"{profile.title} ({profile.id})\nhash {profile.content_hash}\n")
    for name, value in settings.items():
        print(f"  {name:<20} {_shown(name, value):<42} {sources.get(name, 'RULES.md §7 (default)')}")
    return 0


def _shown(name: str, value: Any) -> str:
    """A setting as a person reads it: amounts as currency ($5, $2.50), the rest as in the JSON."""
    if name not in MONEY_SETTINGS:
        return json.dumps(value)
    if value is None:
        return "none"
    if name == "fees":
        return (
            "; ".join(
                f"up to {amount_text(tier['upto'])}: player {amount_text(tier['player'])}, PD {amount_text(tier['pd'])}"
                for tier in value
            )
            or "none"
        )
    return amount_text(value)
