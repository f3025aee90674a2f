"""The screens lay text out in the font they name, from its own files, on every machine."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics, QRawFont
from PySide6.QtWidgets import QLabel

from ui.common.screen_font import FAMILY, FILES, FOLDER, PACKAGE, ScreenFontMissing, load_screen_font
from ui.common.theme import style


def test_a_machine_without_the_font_is_told_which_package_has_it(tmp_path):
    with pytest.raises(ScreenFontMissing) as missing:
        load_screen_font(tmp_path)
    assert PACKAGE in str(missing.value) and str(tmp_path / "DejaVuSans.ttf") in str(missing.value)


def test_the_screens_text_is_in_the_named_font_at_its_own_widths(qtbot):
    label = QLabel("Shoe up · last QS")
    label.setStyleSheet(style())
    qtbot.addWidget(label)
    label.ensurePolished()
    assert QFontInfo(label.font()).family() == FAMILY
    font = QFont(FAMILY)
    font.setPixelSize(100)
    text = "Shoe up · last QS ♠"
    own = QRawFont(str(FOLDER / FILES[0]), 100)
    advances = own.advancesForGlyphIndexes(own.glyphIndexesForString(text))
    assert QFontMetrics(font).horizontalAdvance(text) == round(sum(a.x() for a in advances)), (
        "the text is as wide as the font's own file makes it"
    )
