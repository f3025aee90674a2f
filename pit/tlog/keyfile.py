"""Note key files: Go's private key text on one line, readable by its owner alone (mode 0600)."""

from __future__ import annotations

import os
from pathlib import Path

from dealer_assist.errors import CommandCode, CommandError
from pit.tlog.errors import KeyFailure, Malformed
from pit.tlog.keys import SignatureType, SignerKey

__all__ = ["read_key", "write_new_key"]


def write_new_key(path: Path, name: str, kind: SignatureType) -> SignerKey:
    """A new key in a new file: an existing file is never overwritten (it may be a log's only key)."""
    try:
        key = SignerKey.generate(name, kind)
    except Malformed as error:
        raise CommandError(CommandCode.BAD_ARGUMENTS, str(error)) from None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CommandError(CommandCode.FILE_EXISTS, f"{path}: the file exists; a key is never overwritten", 1) from None
    except OSError as error:
        raise CommandError(CommandCode.CANNOT_WRITE, f"{path}: {error.strerror or error}", 1) from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(f"{key}\n")
        out.flush()
        os.fsync(out.fileno())
    return key


def read_key(path: Path, kind: SignatureType) -> SignerKey:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise CommandError(CommandCode.UNREADABLE_FILE, f"{path}: {error.strerror or error}", 1) from None
    try:
        key = SignerKey.parse(text)
    except Malformed as error:
        raise KeyFailure(f"{path}: {error}") from None
    if key.kind is not kind:
        raise KeyFailure(f"{path}: a key of type {key.kind:02x}, not {kind:02x}")
    return key
