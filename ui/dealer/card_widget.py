"""A hand's cards, painted: rank and suit in each card's corner, overlapping when space is short."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.rules.cards import SUIT_SYMBOLS, Card
from dealer_assist.text.journal_text import RED_SUITS
from ui.common.screen_font import FAMILY
from ui.common.theme import RED_SUIT

_FACE = QColor("#fbfbf8")
_EDGE = QColor("#b9bec6")
_BACK = QColor("#24406b")
_BACK_EDGE = QColor("#8fb3e8")
_INK = QColor("#111111")
_RED = QColor(RED_SUIT)


class CardRow(QWidget):
    """The cards of one hand; None is a face-down hole card. Cards overlap rather than clip.

    A card is `lines` text lines tall, so cards grow with the style sheet's font on large screens."""

    def __init__(self, lines: float = 3.0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards: tuple[Card | None, ...] = ()
        self.lines = lines
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(self._card_height())

    def set_lines(self, lines: float) -> None:
        if lines != self.lines:
            self.lines = lines
            self.setMinimumHeight(self._card_height())
            self.updateGeometry()
            self.update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.setMinimumHeight(self._card_height())
            self.updateGeometry()
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(max(1, len(self.cards)) * (self._card_width() + 4), self._card_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self._card_width() + 8, self._card_height())

    def _card_height(self) -> int:
        return round(self.fontMetrics().height() * self.lines)

    def _card_width(self) -> int:
        return self._card_height() * 7 // 10

    def show_cards(self, cards: tuple[Card | None, ...]) -> None:
        if cards != self.cards:
            self.cards = cards
            self.setAccessibleName(" ".join("hole" if c is None else str(c) for c in cards))
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.cards:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self._card_width(), self._card_height() - 2
        count = len(self.cards)
        step = w + 4
        if count > 1 and (count - 1) * step + w > self.width():
            step = max(12, (self.width() - w - 1) // (count - 1))
        font = QFont(FAMILY, 1, QFont.Weight.Bold)
        font.setPixelSize(max(12, h * 3 // 10))
        painter.setFont(font)
        for position, card in enumerate(self.cards):
            rect = QRectF(1 + position * step, 1, w, h)
            self._paint_card(painter, rect, card, step < w)
        painter.end()

    @staticmethod
    def _paint_card(painter: QPainter, rect: QRectF, card: Card | None, overlapped: bool) -> None:
        radius = rect.height() / 12
        if card is None:
            painter.setPen(QPen(_BACK_EDGE, 2))
            painter.setBrush(_BACK)
            painter.drawRoundedRect(rect, radius, radius)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "?")
            return
        painter.setPen(QPen(_EDGE, 1.5))
        painter.setBrush(_FACE)
        painter.drawRoundedRect(rect, radius, radius)
        painter.setPen(_RED if card.suit in RED_SUITS else _INK)
        rank = "10" if card.rank == "T" else card.rank
        if overlapped:
            corner = QRectF(rect.left() + 2, rect.top() + 2, rect.width() - 4, rect.height() - 4)
            painter.drawText(
                corner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, f"{rank}\n{SUIT_SYMBOLS[card.suit]}"
            )
        else:
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{rank}\n{SUIT_SYMBOLS[card.suit]}")
