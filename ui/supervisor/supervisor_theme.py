"""The supervisor's screens in the dealer's look, plus what only they use: lists, tables, tabs,
text fields and the PIN keypad, every size scaled like the dealer's screen."""

from __future__ import annotations

from ui.common.theme import ACCENT, ALERT, BACKGROUND, MUTED, PANEL, TEXT, TOUCH, style

__all__ = ["supervisor_style"]

KEY = 88  # the PIN keypad's keys: larger than the smallest touch target, for a quick sure tap


def supervisor_style(scale: float = 1.0) -> str:
    """The dealer's style sheet and the supervisor's additions, sizes multiplied by `scale`."""

    def px(size: int) -> int:
        return round(size * scale)

    return (
        style(scale)
        + f"""
QListWidget, QTableWidget {{ background: {PANEL}; border: none; border-radius: {px(10)}px; font-size: {px(18)}px; }}
QListWidget::item {{ min-height: {px(TOUCH)}px; padding: 0 {px(10)}px; border-bottom: 1px solid #243244; }}
QListWidget::item:selected {{ background: #5aa9ff; color: {BACKGROUND}; }}
QTableWidget {{ gridline-color: #243244; }}
QTableWidget::item {{ padding: 0 {px(8)}px; }}
QHeaderView::section {{ background: #1b2a3a; color: {MUTED}; border: none; padding: {px(4)}px {px(8)}px;
                        font-size: {px(16)}px; }}
QTabWidget::pane {{ border: none; }}
QTabBar::tab {{ background: #243244; color: {TEXT}; min-height: {px(TOUCH - 8)}px; padding: 0 {px(22)}px;
               margin-right: {px(4)}px; border-top-left-radius: {px(10)}px; border-top-right-radius: {px(10)}px;
               font-size: {px(20)}px; font-weight: bold; }}
QTabBar::tab:selected {{ background: {ACCENT}; color: #111; }}
QLineEdit {{ background: {PANEL}; color: {TEXT}; border: {px(2)}px solid #3a4f68; border-radius: {px(8)}px;
            min-height: {px(TOUCH)}px; padding: 0 {px(10)}px; font-size: {px(22)}px; }}
QLineEdit:focus {{ border-color: {ACCENT}; }}
QPushButton#key {{ min-height: {px(KEY)}px; min-width: {px(KEY + 24)}px; font-size: {px(34)}px; }}
QPushButton#letter {{ padding: 0; min-width: {px(TOUCH)}px; min-height: {px(TOUCH)}px; font-size: {px(24)}px; }}
QPushButton#chip {{ padding: 0 {px(12)}px; font-size: {px(17)}px; }}
QPushButton#pick {{ padding: 0; min-width: {px(TOUCH + 8)}px; font-size: {px(24)}px; }}
QScrollBar:vertical {{ background: {PANEL}; width: {px(16)}px; border: none; }}
QScrollBar::handle:vertical {{ background: #3a4f68; min-height: {px(40)}px; border-radius: {px(6)}px; }}
QScrollBar::add-line, QScrollBar::sub-line {{ height: 0; }}
QLabel#pin {{ font-size: {px(44)}px; font-weight: bold; color: {ACCENT}; }}
QLabel#notice {{ color: white; border-radius: {px(10)}px; padding: {px(8)}px {px(14)}px; font-size: {px(20)}px;
                font-weight: bold; }}
QLabel#notice[kind="refusal"] {{ background: {ALERT}; }}
QLabel#notice[kind="done"] {{ background: #1e5e3a; }}
QLabel#step {{ font-size: {px(24)}px; font-weight: bold; color: {ACCENT}; }}
QLabel#op {{ font-size: {px(19)}px; padding-left: {px(24)}px; }}
"""
    )
