"""What the layout checks accept of a label cut short: its lines fit, its full words are on the tooltip."""

from __future__ import annotations

from ui.common.elided_label import ElidedLabel


def check_elided(label: ElidedLabel) -> None:
    width = label.contentsRect().width() - 2 * label.margin()
    for line in label.shown().split("\n"):
        assert label.fontMetrics().horizontalAdvance(line) <= width, f"{line!r} of {label.text()!r} is clipped"
    assert not label.cut or label.toolTip() == label.text(), f"{label.text()!r} is cut short without its tooltip"
