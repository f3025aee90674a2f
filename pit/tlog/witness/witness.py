"""`add-checkpoint` as tlog-witness says, status by status: 400 a malformed request or an old size past
the checkpoint's, 404 a log it does not witness, 403 no trusted log signature (or a failing one), 409
an old size that is not the size it last cosigned (the body says that size), 422 a checkpoint that is
not consistent with it (a bad proof, a size-0 tree with another root, the same size with another root),
and 200 with its cosignature line once the new checkpoint is stored."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pit.tlog.checkpoint import Checkpoint, open_checkpoint
from pit.tlog.cosignature import cosign
from pit.tlog.errors import Inconsistent, Malformed, Unverified
from pit.tlog.keys import SignatureType, SignerKey, VerifierKey
from pit.tlog.merkle import EMPTY_ROOT, verify_consistency
from pit.tlog.note import Note, NoteVerifier
from pit.tlog.witness.request import AddCheckpoint
from pit.tlog.witness.state import Evidence, Latest, WitnessState

SIZE_TYPE = "text/x.tlog.size"
TEXT_TYPE = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = TEXT_TYPE


class Witness:
    def __init__(
        self, key: SignerKey, logs: Sequence[VerifierKey], state: WitnessState, clock: Callable[[], float] = time.time
    ) -> None:
        if key.kind is not SignatureType.COSIGNATURE_V1:
            raise Malformed(f"witness key {key.name}: of type 04 (cosignature/v1), not {key.kind:02x}")
        self.key = key
        self._logs: dict[str, list[NoteVerifier]] = {}
        for log in logs:
            self._logs.setdefault(log.name, []).append(NoteVerifier(log))
        self._state = state
        self._clock = clock

    @property
    def origins(self) -> Mapping[str, list[NoteVerifier]]:
        return self._logs

    def add_checkpoint(self, body: bytes) -> Answer:
        try:
            request = AddCheckpoint.parse(body)
            checkpoint = Checkpoint.parse(Note.parse(request.checkpoint).text)
        except Malformed as error:
            return Answer(400, f"{error}\n")
        logs = self._logs.get(checkpoint.origin)
        if logs is None:
            return Answer(404, f"unknown log {checkpoint.origin!r}\n")
        try:
            _, opened = open_checkpoint(request.checkpoint, logs)
        except (Unverified, Malformed) as error:
            return Answer(403, f"{error}\n")
        if request.old_size > checkpoint.size:
            return Answer(400, f"old size {request.old_size} is past the checkpoint's size {checkpoint.size}\n")
        with self._state.transaction() as state:
            latest = state.latest(checkpoint.origin)
            size, root = (latest.size, latest.root) if latest else (0, EMPTY_ROOT)
            if request.old_size != size:
                return Answer(409, f"{size}\n", SIZE_TYPE)
            now = int(self._clock())
            try:
                verify_consistency(size, checkpoint.size, root, checkpoint.root, request.proof)
            except Inconsistent as error:
                state.keep_evidence(Evidence(checkpoint.origin, now, str(error), body))
                return Answer(422, f"{error}\n")
            at = max(now, latest.cosigned_at if latest else 1)
            line = cosign(opened.note.text, self.key, at)
            kept = Note(opened.note.text, (*opened.verified, line)).render()
            state.cosigned(checkpoint.origin, Latest(checkpoint.size, checkpoint.root, kept, at))
        return Answer(200, line.line())

    def checkpoint(self, origin_hash: str) -> Answer:
        """The latest cosigned checkpoint of the log whose origin hashes to `origin_hash` (hex SHA-256)."""
        for origin in self._logs:
            if hashlib.sha256(origin.encode()).hexdigest() == origin_hash:
                latest = self._state.latest(origin)
                if latest is not None:
                    return Answer(200, latest.checkpoint.decode())
        return Answer(404, "no checkpoint cosigned for that log\n")
