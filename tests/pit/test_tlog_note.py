"""Signed notes, keys, checkpoints and cosignatures against the standards' own examples: C2SP's
signed-note, tlog-checkpoint and tlog-cosignature files, and golang.org/x/mod/sumdb/note's test vectors."""

from __future__ import annotations

import base64

import pytest

from pit.tlog.checkpoint import Checkpoint, open_checkpoint
from pit.tlog.cosignature import CosignatureVerifier, cosign, signed_message, timestamp_of
from pit.tlog.errors import Malformed, Unverified
from pit.tlog.keys import SignatureType, SignerKey, VerifierKey, key_id
from pit.tlog.note import Note, NoteVerifier, Verifier, open_note, sign_text

# c2sp.org/signed-note, "Verifier keys / Example"
SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = (
    "This is an example message.\n\n"
    "— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3m"
    "FXmRKuwHjG1Yu72IneyaQM=\n"
)
# c2sp.org/signed-note's opening example (its key is not published)
QUASIMODO = (
    "Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n\n"
    "— quasimodo.example/salvatore NnugSzTjtVAewIS+Z/iJhUPeFDkO/5QQ2i5ddnGITLlC+EhfLW9oJKONr"
    "MouFSQU0xMcXxj99ihAQwaqP3ZekRwNtIc=\n"
)
# c2sp.org/tlog-cosignature's example (no keys published: the framing and the signed message are checked)
SOFA_BODY = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
SOFA_LOG = (
    "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Z"
    "hcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
)
SOFA_W1 = (
    "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZ"
    "qhf5nNo0xUe+mbIUBkBIfZ+qnA==\n"
)
SOFA_MESSAGE = (
    "cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\n"
    "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
)
# golang.org/x/mod/sumdb/note's note_test.go
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
PETER_SIG = (
    "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
)
ENOCH_SIG = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"


def verifier(vkey: str) -> NoteVerifier:
    return NoteVerifier(VerifierKey.parse(vkey))


def test_c2sp_example_note_verifies_with_its_vkey() -> None:
    key = VerifierKey.parse(SPEC_VKEY)
    assert (key.name, key.kind, key.key_id) == ("example.com/foo", SignatureType.ED25519, 0x530D903A)
    assert str(key) == SPEC_VKEY
    opened = open_note(SPEC_NOTE.encode(), [NoteVerifier(key)])
    assert opened.note.text == "This is an example message.\n"
    assert [s.name for s in opened.verified] == ["example.com/foo"]
    assert opened.note.render() == SPEC_NOTE.encode()
    changed = SPEC_NOTE.replace("example message", "example massage").encode()
    with pytest.raises(Unverified, match="invalid signature for key example.com/foo"):
        open_note(changed, [NoteVerifier(key)])


def test_c2sp_note_with_blank_lines_splits_at_the_last_one_and_an_unknown_key_is_not_trusted() -> None:
    note = Note.parse(QUASIMODO.encode())
    assert note.text.endswith("\n\ned è subito sera.\n") and len(note.signatures) == 1
    assert note.render() == QUASIMODO.encode()
    with pytest.raises(Unverified, match="no verifiable signatures"):
        open_note(QUASIMODO.encode(), [verifier(SPEC_VKEY)])
    # An unknown key's line beside a trusted one is ignored, not an error.
    mixed = SPEC_NOTE + QUASIMODO.rsplit("\n\n", 1)[1]
    opened = open_note(mixed.encode(), [verifier(SPEC_VKEY)])
    assert [s.name for s in opened.unverified] == ["quasimodo.example/salvatore"]


def test_go_sumdb_note_vectors() -> None:
    signer = SignerKey.parse(PETER_SKEY)
    assert str(signer) == PETER_SKEY and str(signer.verifier()) == PETER_VKEY
    assert key_id("PeterNeumann", SignatureType.ED25519, signer.verifier().public) == 0xC74F20A3
    assert Note(GO_TEXT, (sign_text(GO_TEXT, signer),)).render() == (GO_TEXT + "\n" + PETER_SIG).encode()
    both = (GO_TEXT + "\n" + PETER_SIG + ENOCH_SIG).encode()
    one = open_note(both, [verifier(PETER_VKEY)])
    assert [s.name for s in one.verified] == ["PeterNeumann"] and [s.name for s in one.unverified] == ["EnochRoot"]
    two = open_note(both, [verifier(PETER_VKEY), verifier(ENOCH_VKEY)])
    assert [s.name for s in two.verified] == ["PeterNeumann", "EnochRoot"]
    with pytest.raises(Unverified, match="ambiguous key EnochRoot"):
        open_note(
            (GO_TEXT + "\n" + ENOCH_SIG).encode(), [verifier(ENOCH_VKEY), verifier(PETER_VKEY), verifier(ENOCH_VKEY)]
        )
    with pytest.raises(Malformed):
        open_note((GO_TEXT + "\n" + PETER_SIG * 101).encode(), [verifier(PETER_VKEY)])
    with pytest.raises(Unverified, match="invalid signature for key PeterNeumann"):
        open_note((GO_TEXT + "\n" + PETER_SIG[:60] + "ABCD" + PETER_SIG[60:]).encode(), [verifier(PETER_VKEY)])
    enoch_abcd = ENOCH_SIG[:60] + "ABCD" + ENOCH_SIG[60:]
    dup = open_note(
        (GO_TEXT + "\n" + PETER_SIG + PETER_SIG + ENOCH_SIG + ENOCH_SIG + enoch_abcd).encode(), [verifier(PETER_VKEY)]
    )
    assert len(dup.verified) == 1 and len(dup.unverified) == 2


@pytest.mark.parametrize(
    "message",
    [
        GO_TEXT,
        GO_TEXT + "\n",
        GO_TEXT + "\n" + PETER_SIG[:-1],
        "\x01" + GO_TEXT + "\n" + PETER_SIG,
        GO_TEXT + "\n" + PETER_SIG.replace("PeterNeumann", "Bad Name")[:-1],
        GO_TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
    ],
)
def test_go_malformed_notes(message: str) -> None:
    with pytest.raises(Malformed):
        open_note(message.encode(), [verifier(PETER_VKEY)])
    with pytest.raises(Malformed):
        open_note(b"\xff" + (GO_TEXT + "\n" + PETER_SIG).encode(), [verifier(PETER_VKEY)])


def test_go_key_manglings_are_refused() -> None:
    """Every strict substring and every one-byte change of Go's keys is refused (note_test.go)."""
    for text, parse in ((PETER_VKEY, VerifierKey.parse), (PETER_SKEY, SignerKey.parse)):
        raw = text.encode()
        for i in range(len(raw) + 1):
            for j in range(i + 1, len(raw) + 1):
                if (i, j) != (0, len(raw)):
                    with pytest.raises(Malformed):
                        parse(raw[i:j].decode())
        for i in range(len(raw)):
            changed = raw[:i] + bytes([raw[i] + 1]) + raw[i + 1 :]
            with pytest.raises(Malformed):
                parse(changed.decode())
    with pytest.raises(Malformed):  # wrong length key, with adjusted key hash
        VerifierKey.parse("PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==")
    with pytest.raises(Malformed):  # unknown algorithm, with adjusted key hash
        VerifierKey.parse("PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")


def test_c2sp_checkpoint_and_cosignature_examples_parse_to_their_fields() -> None:
    checkpoint = Checkpoint.parse(SOFA_BODY)
    assert (checkpoint.origin, checkpoint.size) == ("example.com/behind-the-sofa", 20852163)
    assert checkpoint.text() == SOFA_BODY
    note = Note.parse((SOFA_BODY + "\n" + SOFA_LOG + SOFA_W1).encode())
    log, witness = note.signatures
    assert (log.name, len(log.signature)) == ("example.com/behind-the-sofa", 64)
    assert (witness.name, witness.key_id, timestamp_of(witness)) == ("witness.example.com/w1", 0x8D66CF3F, 1679315147)
    assert signed_message(note.text, timestamp_of(witness)) == SOFA_MESSAGE.encode()
    assert note.render() == (SOFA_BODY + "\n" + SOFA_LOG + SOFA_W1).encode()


def test_a_cosignature_verifies_with_its_witness_key_and_not_on_another_checkpoint() -> None:
    log = SignerKey.generate("example.com/behind-the-sofa", SignatureType.ED25519)
    witness = SignerKey.generate("witness.example.com/w1", SignatureType.COSIGNATURE_V1)
    signed = Checkpoint.parse(SOFA_BODY).sign(log)
    line = cosign(SOFA_BODY, witness, 1679315147)
    assert timestamp_of(line) == 1679315147 and line.key_id == witness.verifier().key_id
    checkpoint, opened = open_checkpoint(signed + line.line().encode(), [NoteVerifier(log.verifier())])
    assert checkpoint.size == 20852163 and opened.unverified == (line,)
    cosigners: list[Verifier] = [NoteVerifier(log.verifier()), CosignatureVerifier(witness.verifier())]
    assert len(open_note(signed + line.line().encode(), cosigners).verified) == 2
    other = SOFA_BODY.replace("20852163", "20852164")
    with pytest.raises(Unverified, match="witness.example.com/w1"):
        open_note(Checkpoint.parse(other).sign(log) + line.line().encode(), cosigners)
    with pytest.raises(Malformed, match="type 04"):
        CosignatureVerifier(log.verifier())
    retimed = line.line().replace(
        base64.b64encode(line.key_id.to_bytes(4, "big") + line.signature).decode(),
        base64.b64encode(
            line.key_id.to_bytes(4, "big") + (1679315148).to_bytes(8, "big") + line.signature[8:]
        ).decode(),
    )
    with pytest.raises(Unverified):
        open_note(signed + retimed.encode(), cosigners)


@pytest.mark.parametrize(
    "text",
    [
        "o\n1\n",
        "\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "o\n01\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I\n",
        "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n",
        "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=",
        "o\n-1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
        "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxqw==\n",
    ],
)
def test_malformed_checkpoints_are_refused(text: str) -> None:
    with pytest.raises(Malformed, match="checkpoint"):
        Checkpoint.parse(text)


def test_checkpoint_with_extension_lines_round_trips() -> None:
    text = SOFA_BODY + "ext one\next two\n"
    assert Checkpoint.parse(text).extensions == ("ext one", "ext two") and Checkpoint.parse(text).text() == text
