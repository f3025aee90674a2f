"""One keypad geometry: each chip value sits in the same rectangle of the window in every keypad
(the bank's, the wager pad, the double for less) and in every state of each, at 1280x800 and
1920x1080; where a keypad does not offer a value its place stays empty, and so does Clear's."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.money import CHIP_VALUES
from dealer_assist.rules.phases import Need
from dealer_assist.text.journal_text import money
from tests.screenshots import shoot
from tests.ui.test_worked_example import CARDS  # seat 1 hard 14, seat 6 hard 16: a double for less open at seat 6

SIZES = [(1280, 800), (1920, 1080)]


def _rect(widget: QWidget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


class Seen:
    """Each chip value's rectangles, with the keypad and the state that showed each."""

    def __init__(self) -> None:
        self.chips: dict[int, dict[tuple[int, int, int, int], list[str]]] = {}
        self.clear: dict[tuple[int, int, int, int], list[str]] = {}
        self.empty: list[tuple[str, str, dict[int, QPushButton], QWidget]] = []  # to check once every place is known

    def look(self, t, state: str) -> None:
        for _ in range(3):  # a change can post layout requests up several levels: let them all run
            QApplication.processEvents()
        shown = [
            (name, pad)
            for name, pad in (
                ("bank", t.view.bank_offer.keypad),
                ("wager", t.view.wagers),
                ("double for less", t.view.double_less.keypad),
            )
            if pad.isVisible()
        ]
        assert len(shown) == 1, f"{state}: keypads shown {[name for name, _ in shown]}"
        name, pad = shown[0]
        chips = pad.row.chips
        for value, button in chips.items():
            assert button.isVisible() and button.text() == f"+{money(value)}"
            r = _rect(button)
            self.chips.setdefault(value, {}).setdefault((r.x(), r.y(), r.width(), r.height()), []).append(
                f"{name}: {state}"
            )
        r = _rect(pad.row.clear)
        self.clear.setdefault((r.x(), r.y(), r.width(), r.height()), []).append(f"{name}: {state}")
        others = [b for b in t.view.keypads.findChildren(QPushButton) if b.isVisible() and b not in chips.values()]
        self.empty.append((name, state, chips, others))  # type: ignore[arg-type]

    def check(self, size: tuple[int, int]) -> None:
        assert set(self.chips) == set(CHIP_VALUES), f"{size}: chips seen {sorted(self.chips)}"
        for value, places in self.chips.items():
            assert len(places) == 1, f"{size}: +{money(value)} moves between keypads or states: {places}"
        assert len(self.clear) == 1, f"{size}: Clear moves: {self.clear}"
        for name, state, chips, others in self.empty:  # an offered value's place is empty in a keypad without it
            for value, places in self.chips.items():
                if value in chips:
                    continue
                place = QRect(*next(iter(places)))
                covering = [b.text() for b in others if _rect(b).intersects(place)]
                assert not covering, f"{size}, {name}: {state}: {covering} in the place of +{money(value)}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_chip_keeps_one_place_across_every_keypad_and_state(table, size, tmp_path: Path):
    seen = Seen()
    t = table("nobust-4.0", CARDS, pd_seat=4, bank=50_000, size=size)  # the bank keyed in chips, then betting
    pad = t.view.wagers
    seen.look(t, "betting, no seat")
    t.tap_seat(1)
    seen.look(t, "seat 1")
    t.tap(pad.chip_buttons[100])  # $1 below the minimum: refused, the banner shows
    assert t.view.banner.isVisible()
    seen.look(t, "a refusal")
    t.wager(1, WagerKind.BASE, 2_500)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    seen.look(t, "Lucky Lucky")
    t.wager(6, WagerKind.BASE, 1_000)
    seen.look(t, "seat 6 keyed")
    _shoot(t, tmp_path, size, "keypad-wager")
    t.deal(6)
    assert t.snap.need is Need.PAYMENTS
    t.tap(t.view.payments.confirm)
    seen.look(t, "seat 1 to act: double for less not open")
    t.decide(Action.STAND)
    keypad = t.view.double_less.keypad
    seen.look(t, "seat 6: double for less open")
    t.tap(keypad.chips[500])
    seen.look(t, "double for $5 keyed")
    _shoot(t, tmp_path, size, "keypad-double-for-less")
    t.tap(keypad.confirm)
    seen.look(t, "doubled")
    t.deal(2)
    assert t.snap.need is Need.NOTHING
    t.tap(t.view.settlement.confirm)
    offer = t.view.bank_offer
    seen.look(t, "second turn offered to seat 4")
    t.tap(offer.refuse)
    seen.look(t, "offered to seat 5")
    t.tap(offer.keypad.chips[50_000])
    t.tap(offer.keypad.chips[10_000])
    seen.look(t, "$600 keyed")
    _shoot(t, tmp_path, size, "keypad-bank")
    t.tap(offer.keypad.clear)
    seen.look(t, "cleared")
    t.tap(offer.keypad.chips[100_000])
    t.tap(offer.keypad.confirm)
    seen.look(t, "betting, the next round")
    seen.check(size)


def _shoot(t, folder: Path, size: tuple[int, int], name: str) -> None:
    shoot(t.window, folder, f"{name}-{size[0]}x{size[1]}.png")
