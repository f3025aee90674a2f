"""One witness as the log sees it (c2sp.org/tlog-witness): `POST <url>/add-checkpoint` with the old size
it last cosigned and a consistency proof from there; a cosignature, the size it holds (409), or a refusal."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from dataclasses import dataclass

from dealer_assist.errors import Failure
from pit.tlog.checkpoint import decimal
from pit.tlog.cosignature import CosignatureVerifier
from pit.tlog.errors import Malformed, TlogCode
from pit.tlog.note import Signature
from pit.tlog.policy import PolicyWitness
from pit.tlog.witness.request import AddCheckpoint

TIMEOUT_S = 5.0
SIZE_TYPE = "text/x.tlog.size"


@dataclass(frozen=True)
class Reply:
    status: int  # 0: the witness could not be reached
    body: str
    content_type: str = ""


class Refused(Failure):
    """A witness's answer that is neither a valid cosignature nor a 409 with its size."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(TlogCode.WITNESS_REFUSED, f"{status} {body.strip()[:200]}", 1)
        self.status = status
        self.body = body


def _post(url: str, body: bytes) -> Reply:
    request = urllib.request.Request(url.rstrip("/") + "/add-checkpoint", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            return Reply(
                answer.status, answer.read().decode("utf-8", "replace"), answer.headers.get("Content-Type", "")
            )
    except urllib.error.HTTPError as error:
        return Reply(error.code, error.read().decode("utf-8", "replace"), error.headers.get("Content-Type", ""))
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        return Reply(0, str(error))


async def add_checkpoint(witness: PolicyWitness, request: AddCheckpoint, text: str) -> Signature | int | None:
    """The witness's cosignature of the checkpoint (whose note text is `text`), checked; or the size it
    says it last cosigned (409); or None when it cannot be reached. Raises `Refused` for anything else."""
    if witness.url is None:
        raise Refused(0, f"witness {witness.name}: the policy gives it no URL")
    reply = await asyncio.to_thread(_post, witness.url, request.render())
    if reply.status == 0:
        return None
    if reply.status == 409 and reply.content_type.split(";")[0].strip() == SIZE_TYPE:
        try:
            return decimal(reply.body.rstrip("\n"), "409 size")
        except Malformed:
            raise Refused(409, reply.body) from None
    if reply.status != 200:
        raise Refused(reply.status, reply.body)
    verifier = CosignatureVerifier(witness.key)
    for line in reply.body.splitlines():
        try:
            signature = Signature.parse_line(line)
        except Malformed:
            continue
        if (signature.name, signature.key_id) == (verifier.name, verifier.key_id) and verifier.verify_note(
            text.encode(), signature.signature
        ):
            return signature
    raise Refused(200, f"no valid cosignature of {witness.key.name} in: {reply.body}")
