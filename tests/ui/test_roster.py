"""The table's roster of floor supervisors, read from `supervisors.txt` beside the journal."""

from __future__ import annotations

from dealer_assist.table.roster import MAX_NAMES, ROSTER_FILE, read_roster


def test_no_roster_file_offers_no_names(tmp_path):
    assert read_roster(tmp_path / "table.db") == ()


def test_names_are_read_in_order_without_comments_blanks_or_repeats_up_to_what_fits(tmp_path):
    (tmp_path / ROSTER_FILE).write_text(
        "# day shift\n  floor-1  \n\nfloor-2\nfloor-1\n" + "".join(f"n{i}\n" for i in range(9))
    )
    names = read_roster(tmp_path / "table.db")
    assert names[:3] == ("floor-1", "floor-2", "n0") and len(names) == MAX_NAMES
