"""A label whose place never depends on what it says. A label that grew with its text moved the
buttons beside and below it under the dealer's finger; this one takes the width its layout gives
it and the height of a set number of lines, breaks its text at words onto those lines, and cuts
what does not fit short with "…", its full words on the tooltip. The text is fitted when it or
the label's width changes, never while painting."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

__all__ = ["ElidedLabel"]


def fit_lines(text: str, font: QFont, width: int, lines: int) -> tuple[str, bool]:
    """`text` broken at words (a word longer than a line anywhere) into at most `lines` lines of
    `width` pixels, its own line breaks kept; the last line cut short with "…" when the text goes
    on. Returns the lines and whether anything was cut."""
    metrics = QFontMetrics(font)
    paragraphs = text.split("\n")
    if len(paragraphs) <= lines and all(metrics.horizontalAdvance(line) <= width for line in paragraphs):
        return text, False  # most texts fit as they are: no layout to work out
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    shown: list[str] = []
    for number, paragraph in enumerate(paragraphs):
        layout = QTextLayout(paragraph, font)
        layout.setTextOption(option)
        layout.beginLayout()
        start = 0
        while start < len(paragraph) or start == 0:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            if len(shown) == lines - 1:  # the last line there is room for: the rest of the text, cut short
                rest = " ".join(part for part in (paragraph[start:], *paragraphs[number + 1 :]) if part).strip()
                last = metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width)
                layout.endLayout()
                return "\n".join([*shown, last]), last != rest
            shown.append(paragraph[start : start + line.textLength()].rstrip())
            start += max(1, line.textLength())
        layout.endLayout()
    return "\n".join(shown), False


class ElidedLabel(QLabel):
    """`text()` is the whole text; `shown()` is what fits the label's width on `lines` lines.
    Its width comes from the layout alone (give it a stretch where it shares a row), its height
    is always that of `lines` lines."""

    def __init__(self, text: str = "", name: str = "", lines: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if name:
            self.setObjectName(name)  # before the first polish, which reads the style sheet's padding
        self.lines = lines
        self._text = text
        self._fitted: tuple[str, int] | None = None  # the text and the width last fitted
        self.cut = False  # whether `shown()` leaves words out (they are on the tooltip)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._reserve()

    def text(self) -> str:  # noqa: D102 (QLabel's name): the whole text, as set
        return self._text

    def shown(self) -> str:
        """What the label paints: its text broken onto its lines, cut short if need be."""
        return super().text()

    def setText(self, text: str) -> None:  # noqa: N802 (QLabel's name)
        if text != self._text:
            self._text = text
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._reserve()

    def _reserve(self) -> None:
        """The height of `lines` lines in the label's font, with its padding."""
        lines = self.fontMetrics().boundingRect(
            QRect(0, 0, 10_000, 10_000), Qt.AlignmentFlag.AlignLeft, "\n".join("X" * self.lines)
        )
        margins = self.contentsMargins()  # as QLabel measures its own text
        self.setFixedHeight(lines.height() + margins.top() + margins.bottom() + 2 * self.margin())
        self._fitted = None  # another font: fitted again
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width() - 2 * self.margin()
        key = (self._text, width)
        if key == self._fitted:
            return
        self._fitted = key
        shown, self.cut = fit_lines(self._text, self.font(), width, self.lines) if width > 0 else (self._text, False)
        super().setText(shown)
        self.setToolTip(self._text if self.cut else "")
