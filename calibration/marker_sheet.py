"""The printable marker sheet: one A4 page per calibration marker, each QR code printed at the
layout's `markers.size_mm` exactly (print at 100 %, no "fit to page"), with its corner named.
Written as plain PDF vector drawing, so no Qt is needed to make it."""

from __future__ import annotations

from pathlib import Path

import segno

from calibration.layout import Layout, MarkerCorner

MM = 72 / 25.4  # PDF points per millimetre
A4 = (210 * MM, 297 * MM)
PLACES = {
    MarkerCorner.TL: "top left",
    MarkerCorner.TR: "top right",
    MarkerCorner.BR: "bottom right",
    MarkerCorner.BL: "bottom left",
}


def _page(corner: MarkerCorner, size_mm: float) -> bytes:
    """Drawing operators of one page: the code centred, its modules as filled squares, and a caption."""
    matrix = segno.make_qr(corner.text).matrix
    side = len(matrix)
    module = size_mm * MM / side
    left, top = (A4[0] - size_mm * MM) / 2, (A4[1] + size_mm * MM) / 2
    ops = ["0 g"]
    for row, cells in enumerate(matrix):
        for column, dark in enumerate(cells):
            if dark:
                ops.append(f"{left + column * module:.3f} {top - (row + 1) * module:.3f} {module:.3f} {module:.3f} re")
    ops.append("f")
    caption = f"{corner.text}  -  the {PLACES[corner]} marker, {size_mm:g} mm: print at 100 %"
    ops.append(f"BT /F1 12 Tf {30 * MM:.2f} {40 * MM:.2f} Td ({caption}) Tj ET")
    return "\n".join(ops).encode("ascii")


def write_marker_sheet(layout: Layout, pdf: Path) -> Path:
    """Write the four markers of `layout` as a four-page PDF."""
    corners = list(MarkerCorner)
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: pages; filled in below
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    kids = []
    for corner in corners:
        content = _page(corner, layout.marker_size_mm)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /Font << /F1 %d 0 R >> >> "
            b"/Contents %d 0 R >>" % (A4[0], A4[1], font, len(objects))
        )
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    pdf.write_bytes(bytes(out))
    return pdf
