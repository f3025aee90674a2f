"""The settlement rows, painted in one pass: a full table of wagers appears within a frame.

A grid of labels costs a style-sheet pass per cell; at the round's last card that was the
slowest paint of the round. Cells are (text, role); roles pick the size and colour.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.theme import COLLECT, MUTED, PAY, TEXT

Cell = tuple[str, str]
_ROLES: dict[str, tuple[float, str]] = {  # size relative to the base font, colour
    "muted": (16 / 18, MUTED), "row": (20 / 18, TEXT), "pay": (24 / 18, PAY),
    "collect": (24 / 18, COLLECT), "return": (22 / 18, MUTED),
}
_COLUMN_GAP, _ROW_GAP, _MARGIN = 18, 8, 8


class SettlementTable(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[list[Cell]] = []
        self._widths: list[int] = []
        self._heights: list[int] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

    @property
    def shown(self) -> int:
        return len(self.rows)

    def show_rows(self, rows: list[list[Cell]]) -> None:
        self.rows = rows
        self._measure()

    def texts(self) -> list[list[str]]:
        """The rows as the dealer reads them."""
        return [[text for text, _ in row] for row in self.rows]

    def _font(self, role: str) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(round(self.fontInfo().pixelSize() * _ROLES[role][0]))
        font.setBold(role != "muted")
        return font

    def _measure(self) -> None:
        metrics = {role: QFontMetrics(self._font(role)) for role in _ROLES}
        columns = max((len(row) for row in self.rows), default=0)
        self._widths = [0] * columns
        self._heights = []
        for row in self.rows:
            height = 0
            for column, (text, role) in enumerate(row):
                size = metrics[role].size(0, text)
                self._widths[column] = max(self._widths[column], size.width())
                height = max(height, size.height())
            self._heights.append(height)
        self.updateGeometry()
        self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._measure()
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        width = 2 * _MARGIN + sum(self._widths) + _COLUMN_GAP * max(0, len(self._widths) - 1)
        return QSize(width, _MARGIN + sum(self._heights) + _ROW_GAP * len(self._heights))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()  # scroll rather than squeeze a row

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        fonts = {role: self._font(role) for role in _ROLES}
        top = _MARGIN
        for row, height in zip(self.rows, self._heights):
            if top > event.rect().bottom():
                break
            left = _MARGIN
            for (text, role), width in zip(row, self._widths):
                painter.setFont(fonts[role])
                painter.setPen(QColor(_ROLES[role][1]))
                painter.drawText(QRectF(left, top, width + 1, height), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                left += width + _COLUMN_GAP
            top += height + _ROW_GAP
        painter.end()
