"""The ingest's broker client reads every header block exactly as nats.py's own reader does."""
from __future__ import annotations

import pytest
from nats.aio.client import Client

from pit.stream.headers import FastHeaderClient

BLOCKS = [
    b"Nats-Msg-Id: 0123abcd:17\r\n\r\n",
    b"Nats-Msg-Id:0123abcd:17\r\nNats-Expected-Stream: DA_RECORDS\r\n\r\n",
    b"A: 1\r\nA: 2\r\n\r\n",  # a repeated name: the last one
    b"Bad Name: x\r\nGood: y\r\n",  # whitespace inside a name
    b"Tab\tName: x\r\n",
    b"Sep\x1cName: x\r\n\x1fEdge: y\r\n",  # whitespace by str.isspace, not by bytes.split
    b"\xc3\xa9t\xc3\xa9: x\r\nok: \xc3\xa9t\xc3\xa9\r\n",  # a name that is not ASCII; a UTF-8 value
    b"no colon here\r\n: empty name\r\nv: \xff\xfe\r\n",  # bad UTF-8 in a value
    b"  Padded  :   value with: colons  \r\n",
    b"",
]


@pytest.mark.parametrize("block", BLOCKS)
def test_headers_are_read_as_nats_py_reads_them(block: bytes) -> None:
    assert FastHeaderClient._parse_header_lines(block) == Client._parse_header_lines(block)
