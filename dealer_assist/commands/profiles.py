"""`dealer-assist profiles [NAME]`: list the rule profiles, or show one with its sources."""
from __future__ import annotations

import json

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.rules.profile import load_profile, profile_names, profile_sources


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
        print(json.dumps({"id": profile.id, "title": profile.title, "hash": profile.content_hash,
                          "settings": settings, "sources": sources}, indent=2))
        return 0
    print(f"{profile.title} ({profile.id})\nhash {profile.content_hash}\n")
    for name, value in settings.items():
        print(f"  {name:<20} {json.dumps(value):<42} {sources.get(name, 'RULES.md §7 (default)')}")
    return 0
