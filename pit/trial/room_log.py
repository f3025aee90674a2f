"""A trial room's public log (PIT.md §9): the log's key, two witnesses (`witness-1`, `witness-2`, each a
`witness serve` process of its own with its own key and state) and the tlog-policy naming them with a
quorum of any one, all kept in the room's folder so a room started again goes on with the same log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pit.tlog.keyfile import read_key, write_new_key
from pit.tlog.keys import SignatureType, SignerKey

ORIGIN = "room.dealer-assist.test/da-log"
WITNESSES = ("witness-1", "witness-2")
INTERVAL_S = 10.0  # a trial room shows a round proven within seconds, not the minute a real room signs at


@dataclass(frozen=True)
class RoomLog:
    """Where the room's log keeps its files, and the ports its witnesses listen on."""

    folder: Path
    port: Callable[[str], int]  # the room's: the same port as the last run

    @property
    def key_file(self) -> Path:
        return self.folder / "log.key"

    @property
    def policy_file(self) -> Path:
        return self.folder / "log-policy.txt"

    def prepare(self) -> None:
        """The keys, made once, and the policy, written afresh (the witnesses' ports are the room's)."""
        self.folder.mkdir(exist_ok=True)
        lines = [f"log {_key(self.key_file, ORIGIN, SignatureType.ED25519).verifier()}"]
        for name in WITNESSES:
            vkey = _key(self.folder / f"{name}.key", f"{name}.room.dealer-assist.test", SignatureType.COSIGNATURE_V1)
            lines.append(f"witness {name} {vkey.verifier()} http://127.0.0.1:{self.port(name)}")
        lines += [f"group any-one any {' '.join(WITNESSES)}", "quorum any-one"]
        self.policy_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def pit_args(self) -> tuple[str, ...]:
        """What each `pit serve` is given to keep the log."""
        return (
            "--log-key",
            str(self.key_file),
            "--log-policy",
            str(self.policy_file),
            "--log-interval",
            str(INTERVAL_S),
        )

    def witnesses(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each witness part and its `dealer-assist` command."""
        log_vkey = str(read_key(self.key_file, SignatureType.ED25519).verifier())
        return [
            (
                name,
                (
                    "witness",
                    "serve",
                    "--key",
                    str(self.folder / f"{name}.key"),
                    "--state",
                    str(self.folder / f"{name}.db"),
                    "--log",
                    log_vkey,
                    "--http",
                    f"127.0.0.1:{self.port(name)}",
                ),
            )
            for name in WITNESSES
        ]


def _key(path: Path, name: str, kind: SignatureType) -> SignerKey:
    return read_key(path, kind) if path.exists() else write_new_key(path, name, kind)
