"""What calibrating the overhead camera refuses: a source, markers, a layout or a calibration file."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure


class CalibrationCode(StrEnum):
    SOURCE_UNREADABLE = "source_unreadable"
    BAD_SOURCE = "bad_source"
    MARKER_MISSING = "marker_missing"
    BAD_MARKERS = "bad_markers"
    BAD_LAYOUT = "bad_layout"
    LAYOUT_UNREADABLE = "layout_unreadable"
    UNKNOWN_ZONE = "unknown_zone"
    BAD_CALIBRATION = "bad_calibration"
    CALIBRATION_UNREADABLE = "calibration_unreadable"
    CALIBRATION_UNWRITABLE = "calibration_unwritable"
    ERROR_TOO_HIGH = "error_too_high"


class CalibrationError(Failure):
    """A camera source, a marker sheet, a layout or a calibration file that cannot be used."""

    def __init__(self, code: CalibrationCode, message: str) -> None:
        super().__init__(code, message)
