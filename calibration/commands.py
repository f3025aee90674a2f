"""`dealer-assist calibrate`: find the markers, fit the homography, save it if it is good enough.

Prints one JSON object on stdout: the calibration report and where it was saved (exit 0), or
{"error": {"code", "message"}} (exit 2) for anything wrong with the arguments, source, layout or fit.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from calibration.calibration_file import save_calibration
from calibration.camera_calibration import DEFAULT_MAX_ERROR_MM, calibrate
from calibration.frames import read_frames
from calibration.layout import Layout, default_layout, default_layout_text, load_layout
from calibration.marker_sheet import write_marker_sheet
from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode, CommandError


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(
        prog="dealer-assist calibrate", description="Calibrate the overhead camera from its markers."
    )
    parser.add_argument(
        "--print-markers",
        type=Path,
        metavar="FILE.pdf",
        help="write the printable marker sheet, and beside it FILE.toml, the layout to start from",
    )
    parser.add_argument("--source", help="OpenCV source: device index, video or image file, URL")
    parser.add_argument("--layout", help="layout TOML file (default: the packaged 8-seat layout)")
    parser.add_argument("--out", help="calibration JSON file to write")
    parser.add_argument(
        "--max-error-mm",
        type=_positive,
        default=DEFAULT_MAX_ERROR_MM,
        help=f"refuse to save above this reprojection error (default {DEFAULT_MAX_ERROR_MM:g})",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=10,
        choices=range(1, 301),
        metavar="N",
        help="frames to average, 1..300 (default 10; a still image gives one)",
    )
    return parser


def _print_markers(layout: Layout, pdf: Path, layout_file: Path | None) -> int:
    """The marker sheet, and the layout it was drawn for as the file to measure the felt against."""
    start = pdf.with_suffix(".toml")
    if start.exists():
        raise CommandError(
            CommandCode.FILE_EXISTS, f"{start} exists: the starting layout is not written over (move it first)"
        )
    write_marker_sheet(layout, pdf)
    text = layout_file.read_text(encoding="utf-8") if layout_file else default_layout_text()
    start.write_text(text, encoding="utf-8")
    print(
        json.dumps({"markers": {"sheet": str(pdf), "pages": 4, "size_mm": layout.marker_size_mm, "layout": str(start)}})
    )
    return 0


def main(argv: list[str]) -> int:
    return reporting(lambda: _calibrate(argv), Stream.STDOUT)


def _calibrate(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    layout = load_layout(args.layout) if args.layout else default_layout()
    if args.print_markers:
        return _print_markers(layout, args.print_markers, Path(args.layout) if args.layout else None)
    if not args.source or not args.out:
        raise CommandError(
            CommandCode.BAD_ARGUMENTS, "dealer-assist calibrate: give --source and --out (or --print-markers FILE.pdf)"
        )
    calibration = calibrate(read_frames(args.source, args.frames), layout)
    save_calibration(calibration, args.out, args.max_error_mm)
    print(json.dumps({"calibration": calibration.report() | {"saved": args.out, "max_error_mm": args.max_error_mm}}))
    return 0
