"""Screenshots the tests take of the states they check: into the test's own folder, and copied
into the folder named by $SCREENSHOTS when it is set (docs/screens redoes the README's pictures
from the same states the tests assert)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any


def publish(path: Path) -> Path:
    """Copy a screenshot already saved at `path` into $SCREENSHOTS, if set."""
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        shutil.copy(path, Path(folder) / path.name)
    return path


def shoot(widget: Any, folder: Path, name: str) -> Path:
    """Grab a Qt widget as `name` in `folder`, and publish it; the layouts a change asked for are
    done first, as they are before the screen paints."""
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    path = folder / name
    assert widget.grab().save(str(path)), f"{path} was not written"
    return publish(path)
