"""`dealer-assist proof round --pit URL --token FILE --journal J --round R -o FILE` fetches a round's
proof file from the pit; `dealer-assist proof verify FILE --policy POLICY` checks one offline (PIT.md §9):
exit 0 with one line, 1 `FAILED <step>: <why>`, 2 for input it cannot use."""
from __future__ import annotations

import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from pit.tlog.errors import TlogError
from pit.tlog.policy import Policy
from pit.tlog.round_proof import Failed, Unusable, load, verify

TIMEOUT_S = 30.0


def _arguments(argv: list[str]) -> tuple[str, dict[str, str], list[str]]:
    if not argv:
        raise Unusable("proof round|verify ...")
    command, rest = argv[0], argv[1:]
    options: dict[str, str] = {}
    loose: list[str] = []
    at = 0
    while at < len(rest):
        if rest[at].startswith("-") and rest[at] != "--settle":
            if at + 1 >= len(rest):
                raise Unusable(f"{rest[at]} takes a value")
            options[rest[at]] = rest[at + 1]
            at += 2
        else:
            loose.append(rest[at])
            at += 1
    return command, options, loose


def main(argv: list[str]) -> int:
    try:
        command, options, loose = _arguments(argv)
        if command == "verify":
            return _verify(options, loose)
        if command == "round":
            return _round(options)
        raise Unusable(f"proof {command}: the commands are round and verify")
    except Unusable as error:
        print(f"unusable: {error}", file=sys.stderr)
        return 2


def _verify(options: dict[str, str], loose: list[str]) -> int:
    files = [arg for arg in loose if arg != "--settle"]
    if len(files) != 1 or set(options) != {"--policy"}:
        raise Unusable("proof verify FILE --policy POLICY")
    if "--settle" in loose:
        raise Unusable("--settle: replaying a round through the rules is not built yet")
    try:
        proof = load(Path(files[0]).read_bytes())
        policy = Policy.parse(Path(options["--policy"]).read_bytes())
    except OSError as error:
        raise Unusable(f"{error.filename}: {error.strerror}") from None
    except TlogError as error:
        raise Unusable(f"{options['--policy']}: {error.message}") from None
    try:
        print(verify(proof, policy).line())
    except Failed as failed:
        print(failed, file=sys.stderr)
        return 1
    return 0


def _round(options: dict[str, str]) -> int:
    wanted = {"--pit", "--token", "--journal", "--round", "-o"}
    if set(options) != wanted or not options["--round"].isdigit():
        raise Unusable("proof round --pit URL --token FILE --journal J --round R -o FILE")
    try:
        token = Path(options["--token"]).read_text(encoding="utf-8").strip()
    except OSError as error:
        raise Unusable(f"{options['--token']}: {error.strerror}") from None
    url = (f"{options['--pit'].rstrip('/')}/api/proof/{urllib.parse.quote(options['--journal'], safe='')}"
           f"/{options['--round']}")
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            data = answer.read()
    except urllib.error.HTTPError as error:
        print(f"the pit answered {error.code}: {error.read().decode('utf-8', 'replace').strip()}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as error:
        print(f"the pit at {options['--pit']} cannot be reached: {error}", file=sys.stderr)
        return 1
    Path(options["-o"]).write_bytes(data)
    print(f"round {options['--round']} of journal {options['--journal']}: proof written to {options['-o']}")
    return 0
