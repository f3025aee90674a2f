"""The settlement's tables, painted in one pass: every wager's row, and each seat's net.

A grid of labels costs a style-sheet pass, a show and a move per cell; at the round's last card
that was the slowest paint of the round. Cells are (text, role); roles pick the size and colour.
Each line of text is laid out once and kept: settlements repeat the same words and amounts, so a
new round lays out few lines, and painting only places them.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPointF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QStaticText
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.theme import COLLECT, MUTED, PAY, TEXT

Cell = tuple[str, str]
_ROLES: dict[str, tuple[float, str, bool]] = {  # size relative to the base font, colour, bold
    "muted": (16 / 18, MUTED, False), "row": (20 / 18, TEXT, True), "amount": (22 / 18, TEXT, True),
    "pay": (24 / 18, PAY, True), "collect": (24 / 18, COLLECT, True), "return": (22 / 18, MUTED, True),
}
_COLUMN_GAP = 18
_KEPT_LINES = 4096  # laid-out lines kept; past this the store starts again


class SettlementTable(QWidget):
    """Rows of cells in columns as wide as their widest cell; a row is as tall as its tallest."""

    def __init__(self, margin: int = 8, row_gap: int = 8, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[list[Cell]] = []
        self._margin, self._row_gap = margin, row_gap
        self._fonts: dict[str, tuple[QFont, QColor, int]] = {}  # role: font, colour, line height
        self._lines: dict[tuple[str, str], tuple[QStaticText, int]] = {}  # (role, text): line, width
        self._placed: list[tuple[QPointF, str, QStaticText]] = []
        self._size = QSize(2 * margin, margin)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self._restyle()

    @property
    def shown(self) -> int:
        return len(self.rows)

    def show_rows(self, rows: list[list[Cell]]) -> None:
        if rows != self.rows:
            self.rows = rows
            self._place()

    def texts(self) -> list[list[str]]:
        """The rows as the dealer reads them."""
        return [[text for text, _ in row] for row in self.rows]

    def _restyle(self) -> None:
        """Fonts follow the style sheet's base size; lines laid out in the old fonts are dropped."""
        base = self.fontInfo().pixelSize()
        self._fonts = {}
        for role, (size, colour, bold) in _ROLES.items():
            font = QFont(self.font())
            font.setPixelSize(round(base * size))
            font.setBold(bold)
            self._fonts[role] = (font, QColor(colour), QFontMetrics(font).height())
        self._lines.clear()

    def _line(self, role: str, text: str) -> tuple[QStaticText, int]:
        kept = self._lines.get((role, text))
        if kept is None:
            if len(self._lines) >= _KEPT_LINES:
                self._lines.clear()
            line = QStaticText(text)
            line.setTextFormat(Qt.TextFormat.PlainText)
            line.prepare(font=self._fonts[role][0])
            kept = self._lines[(role, text)] = (line, math.ceil(line.size().width()))
        return kept

    def _place(self) -> None:
        """Where each line of each cell goes; cells are centred on their row's height."""
        cells = [[(role, [self._line(role, part) for part in text.split("\n")]) for text, role in row]
                 for row in self.rows]
        widths = [0] * max((len(row) for row in self.rows), default=0)
        heights = []
        for row in cells:
            height = 0
            for column, (role, lines) in enumerate(row):
                for _, width in lines:
                    widths[column] = max(widths[column], width)
                height = max(height, self._fonts[role][2] * len(lines))
            heights.append(height)
        self._placed = []
        top = self._margin
        for row, height in zip(cells, heights):
            left = self._margin
            for (role, lines), width in zip(row, widths):
                line_height = self._fonts[role][2]
                y = top + (height - line_height * len(lines)) / 2
                for line, _ in lines:
                    self._placed.append((QPointF(left, y), role, line))
                    y += line_height
                left += width + _COLUMN_GAP
            top += height + self._row_gap
        self._size = QSize(2 * self._margin + sum(widths) + _COLUMN_GAP * max(0, len(widths) - 1),
                           self._margin + sum(heights) + self._row_gap * len(heights))
        self.updateGeometry()
        self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._restyle()
            self._place()
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        return self._size

    def minimumSizeHint(self) -> QSize:
        return self._size  # scroll rather than squeeze a row

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        bottom = event.rect().bottom()
        role = None
        for point, line_role, line in self._placed:
            if point.y() > bottom:
                break
            if line_role != role:
                role = line_role
                font, colour, _ = self._fonts[role]
                painter.setFont(font)
                painter.setPen(colour)
            painter.drawStaticText(point, line)
        painter.end()
