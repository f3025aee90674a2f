"""Nothing moves under a finger: the decision bar, the banner and the keypads keep their places
from the wagers to the settlement, with a refusal shown or not."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.rules.inputs import Action, WagerKind

CARDS = ["TS", "9H", "KD", "QH", "8C", "5D", "KC"]  # seat 1 20, seat 6 17, the PD KD 5D hits KC: bust


def _place(widget: QWidget) -> QRect:
    QApplication.processEvents()
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


def _places(t) -> dict[str, QRect]:
    v = t.view
    return {
        "decisions": _place(v.decisions),
        "banner": _place(v.banner),
        "keypads": _place(v.keypads),
        "stand": _place(v.decisions.buttons[Action.STAND]),
    }


def test_the_decision_bar_the_banner_and_the_keypads_hold_their_places_in_every_state(table):
    for size in ((1280, 800), (1920, 1080)):
        t = table("nobust-4.0", CARDS, pd_seat=4, size=size)
        seen = [_places(t)]
        t.tap_seat(2)
        t.tap(t.view.wagers.chip_buttons[100])  # below the minimum: the refusal banner shows
        assert t.view.banner.isVisible()
        seen.append(_places(t))
        t.wager(1, WagerKind.BASE, 2_500)
        t.wager(6, WagerKind.BASE, 2_500)
        seen.append(_places(t))
        t.deal(6)
        seen.append(_places(t))  # play: the double-for-less keypad instead of the wager pad
        t.decide(Action.STAND)
        t.decide(Action.STAND)
        seen.append(_places(t))
        for name in ("banner", "keypads"):
            assert len({(r.x(), r.y(), r.width(), r.height()) for r in (p[name] for p in seen)}) == 1, (
                size,
                name,
                [p[name] for p in seen],
            )
        for name in ("decisions", "stand"):  # the bar's row and height; its columns follow the seats' widths
            assert len({(r.y(), r.height()) for r in (p[name] for p in seen)}) == 1, (
                size,
                name,
                [p[name] for p in seen],
            )
