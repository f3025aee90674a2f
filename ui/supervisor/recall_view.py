"""Recall of past rounds: the last rounds in a list, and for the chosen one a stepper over its
inputs (each with the operations it caused), its device evidence, corrections and ledger.
Layout only: it renders `RoundStory` rows and keeps nothing but which round and step is shown."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.rules.counts import count
from dealer_assist.text.round_story import LEDGER_HEAD, Evidence, RoundStory
from ui.common.elided_label import ElidedLabel
from ui.common.theme import COLLECT, PAY

DEVICES_TAB, CORRECTIONS_TAB = 2, 3  # after the ledger and the hands
Shared = TypeVar("Shared", bound=QWidget)


def _label(text: str, role: str, wrap: bool = False) -> QLabel:
    label = QLabel(text)
    label.setObjectName(role)
    label.setWordWrap(wrap)
    return label


def _fixed_share(widget: Shared) -> Shared:
    """A widget whose height is its stretch's share of the column, never what it holds."""
    widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
    return widget


def _wrapping(rows: QListWidget) -> QListWidget:
    """A list whose long lines (a correction, a mispay in words) break onto lines of their own, never scrolled
    sideways."""
    rows.setWordWrap(True)
    rows.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return rows


def _evidence_list(rows: tuple[Evidence, ...], empty: str) -> list[str]:
    return [f"#{row.seq}  {row.time}   {row.text}" for row in rows] or [empty]


class RecallView(QWidget):
    """Emits `report_requested` with the shown round's id when the supervisor asks for the PDF."""

    report_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stories: tuple[RoundStory, ...] = ()
        self.story: RoundStory | None = None
        self.step = 0
        root = QHBoxLayout(self)
        root.setContentsMargins(0, 10, 0, 0)
        self.rounds = QListWidget()
        self.rounds.currentRowChanged.connect(self._choose)
        root.addWidget(self.rounds, 1)
        right = QVBoxLayout()
        root.addLayout(right, 4)
        self.heading = ElidedLabel(name="title")
        right.addWidget(self.heading)
        stepper = QHBoxLayout()
        self.previous = QPushButton("◀ Previous")
        self.previous.clicked.connect(lambda: self._go(self.step - 1))
        self.position = ElidedLabel(name="step")  # after both steppers: "Input 10 of 12" moves neither
        self.next = QPushButton("Next ▶")
        self.next.clicked.connect(lambda: self._go(self.step + 1))
        self.report = QPushButton("Dispute report (PDF)")
        self.report.setObjectName("primary")
        self.report.clicked.connect(self._ask_report)
        stepper.addWidget(self.previous)
        stepper.addWidget(self.next)
        stepper.addWidget(self.position, 1)
        stepper.addWidget(self.report)
        right.addLayout(stepper)
        panel = QFrame()
        panel.setObjectName("panel")
        shown = QVBoxLayout(panel)
        self.record = _label("", "muted")
        self.input = _label("", "amount", wrap=True)
        self.operations = _label("", "op", wrap=True)
        for widget in (self.record, self.input, self.operations):
            shown.addWidget(widget)
        shown.addStretch(1)
        # The input and the tabs share the height two to three whatever the step or the tab shows:
        # a long list of operations scrolls rather than push the tabs down.
        scroller = QScrollArea()
        scroller.setWidgetResizable(True)
        scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroller.setWidget(panel)
        right.addWidget(_fixed_share(scroller), 2)
        self.tabs = _fixed_share(QTabWidget())
        ledger = QWidget()
        ledger_box = QVBoxLayout(ledger)
        ledger_box.setContentsMargins(0, 6, 0, 0)
        self.ledger = QTableWidget(0, len(LEDGER_HEAD))
        self.ledger.setHorizontalHeaderLabels(LEDGER_HEAD)
        self.ledger.verticalHeader().hide()
        self.ledger.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.ledger.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.ledger.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        ledger_box.addWidget(self.ledger, 1)
        self.nets = ElidedLabel(name="row", lines=3)  # the seats' nets, then the player-dealer's and the bank
        ledger_box.addWidget(self.nets)
        self.tabs.addTab(ledger, "Ledger")
        self.hands = QListWidget()
        self.tabs.addTab(self.hands, "Hands")
        self.evidence = _wrapping(QListWidget())
        self.tabs.addTab(self.evidence, "Devices")
        self.corrections = _wrapping(QListWidget())
        self.tabs.addTab(self.corrections, "Corrections")
        right.addWidget(self.tabs, 3)

    def show_rounds(self, stories: tuple[RoundStory, ...]) -> None:
        """The rounds newest first; the newest is shown, or the one shown before if still listed."""
        shown = self.story.round_id if self.story is not None else None
        self.stories = tuple(reversed(stories))
        ids = [story.round_id for story in self.stories]
        row = ids.index(shown) if shown in ids else 0
        self.rounds.blockSignals(True)
        self.rounds.clear()
        for story in self.stories:
            self.rounds.addItem(f"{story.title}\n{story.started[11:19]} · {count(len(story.steps), 'input')}")
        self.rounds.setCurrentRow(row)
        self.rounds.blockSignals(False)
        if not self.stories:
            self._show_nothing()
            return
        self._choose(row, self.step if shown in ids else 0)

    def _show_nothing(self) -> None:
        """A journal without a round yet: the heading says so and the buttons that would do nothing are dimmed."""
        self.story, self.step = None, 0
        self.heading.setText("No rounds yet: a round is listed here from its first input")
        self.position.setText("")
        for button in (self.previous, self.next, self.report):
            button.setEnabled(False)

    def forget(self) -> None:
        """The screens were locked: when they open again the newest round is shown, not the last one looked at."""
        self.story, self.step = None, 0

    def _choose(self, row: int, step: int = 0) -> None:
        if not 0 <= row < len(self.stories):
            return
        story = self.stories[row]
        self.story = story
        self.heading.setText("   ·   ".join(story.heading))
        self._fill_ledger(story)
        late = _evidence_list(story.late_changes, "") if story.late_changes else []  # the reader's, in words
        self._fill(
            self.evidence,
            [
                *_evidence_list(story.refused, "No refused inputs"),
                *late,
                *_evidence_list(story.devices, "No device records"),
            ],
        )
        self._fill(self.corrections, _evidence_list(story.corrections, "No corrections"))
        self._fill(
            self.hands,
            [f"{h.whose}   {h.cards}   =  {h.total}" for h in story.hands]
            or [
                "No final hands: the round was voided"
                if story.state == "voided"
                else "No final hands yet: the round is open"
            ],
        )
        late_count = f" · late changes ({len(late)})" if late else ""  # only at a table with a wager reader
        self.tabs.setTabText(
            DEVICES_TAB, f"Devices ({len(story.devices)}) · refused ({len(story.refused)}){late_count}"
        )
        self.tabs.setTabText(CORRECTIONS_TAB, f"Corrections ({len(story.corrections)})")
        self.report.setEnabled(True)
        self._go(step)

    def _go(self, step: int) -> None:
        story = self.story
        if story is None or not story.steps:
            return
        self.step = max(0, min(step, len(story.steps) - 1))
        current = story.steps[self.step]
        self.position.setText(f"Input {self.step + 1} of {len(story.steps)}")
        self.record.setText(f"Record #{current.seq}   ·   {current.time}")
        self.input.setText(current.text)
        self.operations.setText("\n".join(f"→ {op}" for op in current.operations) or "→ no operation")
        self.previous.setEnabled(self.step > 0)
        self.next.setEnabled(self.step < len(story.steps) - 1)

    @staticmethod
    def _fill(widget: QListWidget, lines: list[str]) -> None:
        widget.clear()
        widget.addItems(lines)

    def _fill_ledger(self, story: RoundStory) -> None:
        self.ledger.setRowCount(len(story.ledger))
        for row, line in enumerate(story.ledger):
            cells = line.cells
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if column == len(cells) - 1 and text[0] in "+-":
                    item.setForeground(QColor(PAY if text[0] == "+" else COLLECT))
                self.ledger.setItem(row, column, item)
        self.ledger.resizeRowsToContents()
        if not story.ledger:
            self.nets.setText(
                "No ledger: the round was voided." if story.state == "voided" else "No ledger yet: the round is open."
            )
            return
        nets = "   ".join(f"{seat} {net}" for seat, net in story.seat_nets)
        dealer = f"\nPlayer-dealer {story.player_dealer_net}" if story.player_dealer_net else ""
        dealer += f"   ·   {story.bank}" if story.bank else ""
        self.nets.setText(f"Nets: {nets}{dealer}")

    def _ask_report(self) -> None:
        if self.story is not None:
            self.report_requested.emit(self.story.round_id)
