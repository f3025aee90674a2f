"""Trust policies (c2sp.org/tlog-policy): the logs, the witnesses, their groups and the quorum, and
whether a checkpoint's cosignatures meet it.

    log <vkey> [<url>]
    witness <name> <vkey> [<url>]
    group <name> all|any|<k> <name>...
    quorum <name>|none
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pit.tlog.checkpoint import Checkpoint, open_checkpoint
from pit.tlog.cosignature import CosignatureVerifier, timestamp_of
from pit.tlog.errors import Malformed, Unverified
from pit.tlog.keys import SignatureType, VerifierKey
from pit.tlog.note import NoteVerifier, Verifier, open_note

__all__ = ["Policy", "PolicyWitness"]

NONE = "none"
_SPACE = re.compile(r"[ \t]+")
_ALLOWED = frozenset([0x09, 0x0A, *range(0x20, 0x7F), *range(0x80, 0x100)])


@dataclass(frozen=True)
class PolicyLog:
    key: VerifierKey
    url: str | None


@dataclass(frozen=True)
class PolicyWitness:
    name: str
    key: VerifierKey
    url: str | None


@dataclass(frozen=True)
class Group:
    name: str
    threshold: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class Policy:
    logs: tuple[PolicyLog, ...]
    witnesses: Mapping[str, PolicyWitness]
    groups: Mapping[str, Group]
    quorum: str

    @classmethod
    def parse(cls, data: bytes) -> Policy:
        return _Parser().parse(data)

    def satisfied(self, cosigned: set[str], name: str | None = None) -> bool:
        """Whether the witnesses named in `cosigned` meet the quorum (or the group or witness `name`)."""
        name = self.quorum if name is None else name
        if name == NONE:
            return True
        group = self.groups.get(name)
        if group is None:
            return name in cosigned
        return sum(self.satisfied(cosigned, member) for member in group.members) >= group.threshold

    def verify(self, note: bytes) -> tuple[Checkpoint, dict[str, int]]:
        """The checkpoint, signed by one of the policy's logs, and each witness that cosigned it with its
        time; raises `Unverified` when the quorum is not met or a known key's signature fails."""
        logs = [NoteVerifier(log.key) for log in self.logs]
        checkpoint, _ = open_checkpoint(note, logs)
        cosigners: list[Verifier] = [*logs, *(CosignatureVerifier(w.key) for w in self.witnesses.values())]
        verified = open_note(note, cosigners).verified
        by_key = {(w.key.name, w.key.key_id): w.name for w in self.witnesses.values()}
        times = {by_key[(s.name, s.key_id)]: timestamp_of(s) for s in verified if (s.name, s.key_id) in by_key}
        if not self.satisfied(set(times)):
            raise Unverified(f"quorum {self.quorum}: not met by the cosignatures of {sorted(times) or 'no witness'}")
        return checkpoint, times


@dataclass
class _Parser:
    logs: list[PolicyLog] = field(default_factory=list)
    witnesses: dict[str, PolicyWitness] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    quorum: str | None = None

    def parse(self, data: bytes) -> Policy:
        bad = next((at for at, byte in enumerate(data) if byte not in _ALLOWED), None)
        if bad is not None:
            raise Malformed(f"policy: byte {bad} ({data[bad]:#04x}) is a control character")
        for number, line in enumerate(data.decode("utf-8", "surrogateescape").split("\n"), start=1):
            words = _SPACE.split(line.strip(" \t"))
            if words == [""] or words[0].startswith("#"):
                continue
            try:
                self._line(words)
            except Malformed as error:
                raise Malformed(f"policy line {number}: {error}") from None
        if self.quorum is None:
            raise Malformed("policy: no quorum line")
        return Policy(tuple(self.logs), dict(self.witnesses), dict(self.groups), self.quorum)

    def _line(self, words: list[str]) -> None:
        keyword, args = words[0], words[1:]
        if keyword == "log" and len(args) in (1, 2):
            self._log(args)
        elif keyword == "witness" and len(args) in (2, 3):
            self._witness(args)
        elif keyword == "group" and len(args) >= 3:
            self._group(args[0], args[1], args[2:])
        elif keyword == "quorum" and len(args) == 1:
            if self.quorum is not None:
                raise Malformed("a second quorum line")
            self.quorum = args[0] if args[0] == NONE else self._defined(args[0])
        else:
            raise Malformed(f"{' '.join(words)!r} is not a log, witness, group or quorum line")

    def _key(self, text: str, kind: SignatureType) -> VerifierKey:
        key = VerifierKey.parse(text)
        if key.kind is not kind:
            raise Malformed(f"vkey {key.name}: of type {kind:02x} here, not {key.kind:02x}")
        listed = [*(log.key for log in self.logs), *(w.key for w in self.witnesses.values())]
        if any(k.public == key.public for k in listed):
            raise Malformed(f"vkey {key.name}: its public key is listed already")
        return key

    def _log(self, args: list[str]) -> None:
        self.logs.append(PolicyLog(self._key(args[0], SignatureType.ED25519), args[1] if len(args) > 1 else None))

    def _witness(self, args: list[str]) -> None:
        name = self._new_name(args[0])
        self.witnesses[name] = PolicyWitness(
            name, self._key(args[1], SignatureType.COSIGNATURE_V1), args[2] if len(args) > 2 else None
        )

    def _group(self, name: str, threshold: str, members: list[str]) -> None:
        self._new_name(name)
        if len(set(members)) != len(members):
            raise Malformed(f"group {name}: a member is listed twice")
        for member in members:
            if member == NONE:
                raise Malformed(f"group {name}: 'none' is not a member")
            self._defined(member)
        if threshold == "all":
            k = len(members)
        elif threshold == "any":
            k = 1
        elif re.fullmatch(r"[1-9][0-9]*", threshold) and int(threshold) <= len(members):
            k = int(threshold)
        else:
            raise Malformed(f"group {name}: threshold {threshold!r} is all, any or 1 to {len(members)}")
        self.groups[name] = Group(name, k, tuple(members))

    def _new_name(self, name: str) -> str:
        if name == NONE or name in self.witnesses or name in self.groups:
            raise Malformed(f"the name {name!r} is taken")
        return name

    def _defined(self, name: str) -> str:
        if name not in self.witnesses and name not in self.groups:
            raise Malformed(f"{name!r} is not a witness or group defined above")
        return name
