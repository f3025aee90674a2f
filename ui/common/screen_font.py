"""The one font of every screen and of the dispute report, loaded from its own files.

Text widths decide what the status line keeps, where a label is cut short and how wide a seat is, so
a table PC, the test machine and the screenshots must lay text out in the same font. Qt would
otherwise take whatever the machine's font configuration offers for the name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase

from ui.common.errors import ScreenCode, ScreenError

__all__ = ["FAMILY", "ScreenFontMissing", "load_screen_font"]

FAMILY = "DejaVu Sans"
PACKAGE = "fonts-dejavu-core"  # Debian's package of these files; scripts/bootstrap.sh installs it
FOLDER = Path("/usr/share/fonts/truetype/dejavu")
FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


class ScreenFontMissing(ScreenError):
    """The screens' font files are not on this machine."""

    def __init__(self, message: str) -> None:
        super().__init__(ScreenCode.SCREEN_FONT_MISSING, message)


def load_screen_font(folder: Path = FOLDER) -> None:
    """Adds the font's files to the running application's fonts (a QGuiApplication must exist).
    Raises ScreenFontMissing naming the file and the package that has it."""
    for name in FILES:
        path = folder / name
        if not path.is_file():
            raise ScreenFontMissing(
                f"the screens' font {FAMILY} is missing: {path} is not there "
                f"(install Debian's {PACKAGE}, as scripts/bootstrap.sh does)"
            )
        if QFontDatabase.addApplicationFont(str(path)) < 0:
            raise ScreenFontMissing(f"the screens' font {FAMILY} could not be read from {path}")
