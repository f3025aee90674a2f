"""`pit serve --log-key FILE --log-policy FILE [--log-interval S]`: the log's key and policy, read and
checked against each other before the pit starts."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.errors import CommandCode, CommandError
from pit.tlog.errors import Malformed
from pit.tlog.keyfile import read_key
from pit.tlog.keys import SignatureType, SignerKey
from pit.tlog.policy import Policy

__all__ = ["log_key_and_policy"]


def read_policy(path: Path) -> Policy:
    try:
        return Policy.parse(path.read_bytes())
    except OSError as error:
        raise CommandError(CommandCode.UNREADABLE_FILE, f"{path}: {error.strerror or error}", 1) from None
    except Malformed as error:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"{path}: {error}") from None


def log_key_and_policy(key_file: Path | None, policy_file: Path | None) -> tuple[SignerKey, Policy] | None:
    """The log's key and its policy (whose `log` line is that key's vkey), or None without a key."""
    if key_file is None and policy_file is None:
        return None
    if key_file is None or policy_file is None:
        raise CommandError(CommandCode.BAD_ARGUMENTS, "--log-key and --log-policy go together")
    key = read_key(key_file, SignatureType.ED25519)
    policy = read_policy(policy_file)
    if all(log.key != key.verifier() for log in policy.logs):
        raise CommandError(
            CommandCode.BAD_ARGUMENTS, f"{policy_file}: no log line has the vkey of {key_file} ({key.verifier()})"
        )
    return key, policy
