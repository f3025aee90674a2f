"""Machine-readable codes as grids of dark modules, for the synthetic camera to print.

QR comes from segno (`make_qr`: plain `make` picks Micro QR for short text, which zbar cannot read).
Code 128 is drawn here from the symbology's table, in code set B, which covers every card code.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np
import segno

# Bar and space widths of the Code 128 symbol values 0..105, then the stop pattern.
_CODE128_WIDTHS = (
    "212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 "
    "122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 "
    "322112 322211 212123 212321 232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 "
    "112133 112331 132131 113123 113321 133121 313121 211331 231131 213113 213311 213131 311123 311321 "
    "331121 312113 312311 332111 314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 "
    "112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241 114212 "
    "124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 114311 411113 "
    "411311 113141 114131 311141 411131 211412 211214 211232 2331112"
).split()
_START_B = 104
_STOP = 106


class Symbology(StrEnum):
    QR = "qr"
    CODE128 = "code128"


def qr_modules(text: str) -> np.ndarray:
    """Square grid, True = dark, without the quiet zone; high error correction survives glare."""
    return np.array(segno.make_qr(text, error="h").matrix, dtype=bool)


def code128_modules(text: str) -> np.ndarray:
    """One row of modules, True = dark, without the quiet zone."""
    if not text or any(not 32 <= ord(ch) < 128 for ch in text):
        raise ValueError(f"Code 128 set B cannot hold {text!r}")
    values = [_START_B] + [ord(ch) - 32 for ch in text]
    checksum = (values[0] + sum(i * v for i, v in enumerate(values[1:], start=1))) % 103
    modules: list[bool] = []
    for value in values + [checksum, _STOP]:
        for index, width in enumerate(_CODE128_WIDTHS[value]):
            modules += [index % 2 == 0] * int(width)
    return np.array(modules, dtype=bool)


def modules_for(text: str, symbology: Symbology) -> np.ndarray:
    """A 2-D grid either way: a Code 128 row is one module high, stretched when printed."""
    return qr_modules(text) if symbology is Symbology.QR else code128_modules(text)[np.newaxis, :]
