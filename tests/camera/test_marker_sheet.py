"""`calibrate --print-markers FILE.pdf`: the four markers at their real size, and the layout to start from."""

from __future__ import annotations

import json
import subprocess

import cv2

from calibration.commands import main
from calibration.layout import MarkerCorner, default_layout, load_layout
from calibration.markers import find_markers

DPI = 100


def test_print_markers_writes_the_sheet_and_the_starting_layout(tmp_path, capsys):
    pdf = tmp_path / "sheet" / "markers.pdf"
    assert main(["--print-markers", str(pdf)]) == 0
    said = json.loads(capsys.readouterr().out)["markers"]
    assert said["layout"] == str(pdf.with_suffix(".toml")) and said["pages"] == 4
    assert load_layout(pdf.with_suffix(".toml")) == default_layout()
    assert pdf.read_bytes().startswith(b"%PDF-1.4") and pdf.read_bytes().count(b"/Type /Page ") == 4
    assert main(["--print-markers", str(pdf)]) == 2, "a layout being edited is never written over"
    assert "is not written over" in capsys.readouterr().out


def test_calibrating_still_needs_a_source_and_an_output(capsys):
    assert main([]) == 2
    assert "give --source and --out" in capsys.readouterr().out


def test_each_page_prints_its_marker_readable_at_the_layout_size(tmp_path):
    pdf = tmp_path / "markers.pdf"
    assert main(["--print-markers", str(pdf)]) == 0
    size_px = default_layout().marker_size_mm / 25.4 * DPI
    for page, corner in enumerate(MarkerCorner, start=1):
        png = tmp_path / f"page-{page}.png"
        subprocess.run(
            [
                "gs",
                "-q",
                "-dNOPAUSE",
                "-dBATCH",
                "-sDEVICE=pnggray",
                f"-r{DPI}",
                f"-dFirstPage={page}",
                f"-dLastPage={page}",
                f"-sOutputFile={png}",
                str(pdf),
            ],
            check=True,
            timeout=60,
        )
        found = find_markers(cv2.imread(str(png), cv2.IMREAD_GRAYSCALE))
        assert list(found) == [corner]
        (x0, _), (x1, _) = found[corner].quad[0], found[corner].quad[1]
        assert abs(abs(x1 - x0) - size_px) < 3, "printed at 100 %, the code is the layout's size"
