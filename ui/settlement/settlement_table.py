"""The settlement's tables, painted in one pass: every wager's row, and each seat's net.

A grid of labels costs a style-sheet pass, a show and a move per cell; at the round's last card
that was the slowest paint of the round. Cells are (text, role); roles pick the size and colour.
Each line of text is laid out once and kept, and so is each width measured: settlements repeat
the same words and amounts, so a new round lays out few lines, and painting only places them.

A table wider than its place breaks the cells of the columns allowed to wrap at their spaces
(never at a no-break space), one column after another and only as far as the width needs: every
column stays in sight on a 1280-pixel screen, and a wide screen shows each cell as it is written.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPointF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QFontMetricsF, QPainter, QPaintEvent, QStaticText
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.common.theme import COLLECT, MUTED, PAY, TEXT

Cell = tuple[str, str]
Broken = tuple[list[list[str]], int]  # a column's cells broken to a width, row by row, and its widest line
Laid = tuple[list[list[list[str]]], list[int], list[int]]  # each cell's lines, each column's width, each row's height
Placed = list[tuple[QPointF, str, QStaticText]]
NO_BREAK = "\u00a0"  # joins words a broken cell keeps on one line ("= soft 21")
_ROLES: dict[str, tuple[float, str, bool]] = {  # size relative to the base font, colour, bold
    "muted": (16 / 18, MUTED, False),
    "row": (20 / 18, TEXT, True),
    "amount": (22 / 18, TEXT, True),
    "pay": (24 / 18, PAY, True),
    "collect": (24 / 18, COLLECT, True),
    "return": (22 / 18, MUTED, True),
    "hand": (1.0, TEXT, False),
}
_COLUMN_GAP = 14
_KEPT = 4096  # laid-out lines and measured widths kept; past this a store starts again
_KEPT_WIDTHS = 8  # layouts kept for the widths a scroll area asks about


class SettlementTable(QWidget):
    """Rows of cells in columns as wide as their widest line; a row is as tall as its tallest cell.
    `wrapping` names the columns whose cells may break to fit the width, the first to break first."""

    def __init__(
        self, margin: int = 8, row_gap: int = 8, wrapping: tuple[int, ...] = (), parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.rows: list[list[Cell]] = []
        self._margin, self._row_gap, self._wrapping = margin, row_gap, wrapping
        self._fonts: dict[
            str, tuple[QFont, QColor, int, QFontMetricsF]
        ] = {}  # role: font, colour, line height, metrics
        self._lines: dict[tuple[str, str], QStaticText] = {}
        self._widths: dict[str, dict[str, int]] = {}  # role: text: width
        self._narrow: dict[int, int] | None = None  # by column, for the rows shown; None: not yet measured
        self._laid_for: dict[int | None, Laid] = {}  # by the width fitted, for the rows shown
        self._sizes: dict[int | None, QSize] = {}  # likewise: a layout asks the same sizes many times over
        self._minimum: QSize | None = None
        self._placed: Placed | None = []  # None: to place again at the next paint
        self._placed_for: int | None = None  # the width the placed lines fit; None: as written
        self._natural = QSize(2 * margin, margin)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(bool(wrapping))
        self.setSizePolicy(policy)
        self._restyle()

    @property
    def shown(self) -> int:
        return len(self.rows)

    def show_rows(self, rows: list[list[Cell]]) -> None:
        if rows != self.rows:
            self.rows = rows
            self._measure()

    def texts(self) -> list[list[str]]:
        """The rows as the dealer reads them."""
        return [[text.replace(NO_BREAK, " ") for text, _ in row] for row in self.rows]

    def lines(self) -> list[list[list[str]]]:
        """Each cell's lines as painted at the present width."""
        return [[list(lines) for lines in row] for row in self._laid(self._fitting(self.width()))[0]]

    def row_spans(self) -> list[tuple[int, int]]:
        """Each row's top and bottom in the table, as painted at the present width."""
        spans, top = [], self._margin
        for height in self._laid(self._fitting(self.width()))[2]:
            spans.append((top, top + height))
            top += height + self._row_gap
        return spans

    @property
    def painted_width(self) -> int:
        """How far right the painted lines reach: within width() unless even the narrowest breaks
        do not fit, and then the scroll area scrolls sideways."""
        return self._size(self._fitting(self.width())).width()

    def _restyle(self) -> None:
        """Fonts follow the style sheet's base size; lines laid out in the old fonts are dropped."""
        base = self.fontInfo().pixelSize()
        self._fonts = {}
        for role, (size, colour, bold) in _ROLES.items():
            font = QFont(self.font())
            font.setPixelSize(round(base * size))
            font.setBold(bold)
            self._fonts[role] = (font, QColor(colour), QFontMetrics(font).height(), QFontMetricsF(font))
        self._lines.clear()
        self._widths = {role: {} for role in _ROLES}

    def _line(self, role: str, text: str) -> QStaticText:
        line = self._lines.get((role, text))
        if line is None:
            if len(self._lines) >= _KEPT:
                self._lines.clear()
            line = self._lines[(role, text)] = QStaticText(text)
            line.setTextFormat(Qt.TextFormat.PlainText)
            line.prepare(font=self._fonts[role][0])
        return line

    def _width(self, role: str, text: str) -> int:
        widths = self._widths[role]
        width = widths.get(text)
        if width is None:
            if len(widths) >= _KEPT:
                widths.clear()
            width = widths[text] = math.ceil(self._fonts[role][3].horizontalAdvance(text))
        return width

    def _wrap(self, role: str, text: str, limit: int) -> list[str]:
        """The cell's lines, each broken at its spaces to stay within `limit` where a word allows."""
        lines = []
        for given in text.split("\n"):
            words = given.split(" ")
            line = words[0]
            for word in words[1:]:
                if self._width(role, f"{line} {word}") <= limit:
                    line = f"{line} {word}"
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def _broken(self, column: int, limit: int) -> Broken:
        """A column's cells broken within `limit`, row by row (none for a row short of the column),
        and its widest line."""
        cells, widest = [], 0
        for row in self.rows:
            lines: list[str] = []
            if column < len(row):
                text, role = row[column]
                lines = self._wrap(role, text, limit)
                widest = max(widest, *(self._width(role, line) for line in lines))
            cells.append(lines)
        return cells, widest

    def _measure(self) -> None:
        """The rows changed: laid out as written; how narrow they can break is found when asked."""
        self._laid_for, self._sizes, self._minimum = {}, {}, None
        self._narrow = None
        self._natural = self._size(None)
        self.updateGeometry()
        self._placed = None
        self.update()

    def _narrowest(self) -> dict[int, int]:
        """Each wrapping column's widest word: as narrow as the column can break."""
        if self._narrow is None:
            columns = len(self._laid(None)[1])
            self._narrow = {
                column: max(
                    self._width(row[column][1], word)
                    for row in self.rows
                    if column < len(row)
                    for word in row[column][0].replace("\n", " ").split(" ")
                )
                for column in self._wrapping
                if column < columns
            }
        return self._narrow

    def _breaks(self, width: int) -> dict[int, Broken]:
        """The columns broken for the rows to fit `width`: the wrapping columns break in turn as far
        as the width needs; room the last break leaves goes back to those before it."""
        written = self._laid(None)[1]
        limits: dict[int, int] = {}  # how wide each broken column's lines may be
        broken: dict[int, Broken] = {}
        wide = list(written)  # each column's width as broken so far
        excess = sum(wide) + 2 * self._margin + _COLUMN_GAP * max(0, len(wide) - 1) - width

        def rebreak(column: int, limit: int) -> None:
            nonlocal excess
            limits[column] = limit
            broken[column] = self._broken(column, limit)
            excess += broken[column][1] - wide[column]
            wide[column] = broken[column][1]

        order = []
        for column, narrow in self._narrowest().items():
            if excess <= 0:
                break
            rebreak(column, max(narrow, written[column] - excess))
            order.append(column)
        for column in reversed(order[:-1]):
            if excess >= 0:
                break
            rebreak(column, min(written[column], limits[column] - excess))
        return broken

    def _laid(self, width: int | None) -> Laid:
        """Each cell's lines, each column's width and each row's height for the rows to fit
        `width` (None: as written). Only the columns broken to fit are laid out again."""
        kept = self._laid_for.get(width)
        if kept is not None:
            return kept
        if width is None:
            columns = max((len(row) for row in self.rows), default=0)
            cells = [[text.split("\n") for text, _ in row] for row in self.rows]
            widths = [0] * columns
            for row, row_lines in zip(self.rows, cells, strict=False):
                for column, ((_, role), lines) in enumerate(zip(row, row_lines, strict=False)):
                    widths[column] = max(widths[column], *(self._width(role, line) for line in lines))
        else:
            written, natural, _ = self._laid(None)
            cells, widths = [list(row) for row in written], list(natural)
            for column, (column_cells, widest) in self._breaks(width).items():
                widths[column] = widest
                for row_lines, cell in zip(cells, column_cells, strict=False):
                    if column < len(row_lines):
                        row_lines[column] = cell
        heights = [
            max(
                (self._fonts[role][2] * len(lines) for (_, role), lines in zip(row, row_lines, strict=False)), default=0
            )
            for row, row_lines in zip(self.rows, cells, strict=False)
        ]
        if len(self._laid_for) >= _KEPT_WIDTHS:
            self._laid_for = {}
        kept = self._laid_for[width] = cells, widths, heights
        return kept

    def _size(self, width: int | None) -> QSize:
        size = self._sizes.get(width)
        if size is None:
            _, widths, heights = self._laid(width)
            if len(self._sizes) >= _KEPT_WIDTHS:
                self._sizes = {}
            size = self._sizes[width] = QSize(
                2 * self._margin + sum(widths) + _COLUMN_GAP * max(0, len(widths) - 1),
                self._margin + sum(heights) + self._row_gap * len(heights),
            )
        return size

    def _placement(self, width: int | None) -> Placed:
        """Where each line goes; cells are centred on their row's height."""
        cells, widths, heights = self._laid(width)
        placed: Placed = []
        top = self._margin
        for row, row_lines, height in zip(self.rows, cells, heights, strict=False):
            left = self._margin
            for (_, role), lines, column_width in zip(row, row_lines, widths, strict=False):
                line_height = self._fonts[role][2]
                y = top + (height - line_height * len(lines)) / 2
                for line in lines:
                    placed.append((QPointF(left, y), role, self._line(role, line)))
                    y += line_height
                left += column_width + _COLUMN_GAP
            top += height + self._row_gap
        return placed

    def _fitting(self, width: int) -> int | None:
        """The width to break the rows for; None when they fit as written."""
        return width if self._wrapping and width < self._natural.width() else None

    def _placed_now(self) -> Placed:
        """The lines placed for the present width: worked out once per paint that needs them, so
        the widths a layout only asks about on its way (heightForWidth) are never placed."""
        width = self._fitting(self.width())
        if self._placed is None or width != self._placed_for:
            self._placed, self._placed_for = self._placement(width), width
        return self._placed

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._restyle()
            self._measure()
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        return self._natural

    def minimumSizeHint(self) -> QSize:
        """As narrow as the wrapping columns break; never squeezed shorter than a row: it scrolls."""
        if self._minimum is None:
            narrow = self._narrowest()
            narrowest = [narrow.get(column, width) for column, width in enumerate(self._laid(None)[1])]
            self._minimum = QSize(
                2 * self._margin + sum(narrowest) + _COLUMN_GAP * max(0, len(narrowest) - 1), self._natural.height()
            )
        return self._minimum

    def hasHeightForWidth(self) -> bool:
        return bool(self._wrapping)

    def heightForWidth(self, width: int) -> int:
        return self._size(self._fitting(width)).height()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        bottom = event.rect().bottom()
        role = None
        for point, line_role, line in self._placed_now():
            if point.y() > bottom:
                break
            if line_role != role:
                role = line_role
                font, colour, _, _ = self._fonts[role]
                painter.setFont(font)
                painter.setPen(colour)
            painter.drawStaticText(point, line)
        painter.end()
