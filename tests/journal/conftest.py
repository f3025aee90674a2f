"""Journal fixtures: real SQLite files, on a RAM disk when the machine has one so that
thousands of durable commits stay quick; the commits are the same either way."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def journal_dir(tmp_path: Path) -> Iterator[Path]:
    shm = Path("/dev/shm")
    if shm.is_dir():
        folder = Path(tempfile.mkdtemp(prefix="dealer-assist-", dir=shm))
        yield folder
        shutil.rmtree(folder, ignore_errors=True)
    else:
        yield tmp_path
