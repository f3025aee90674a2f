"""Card codes: what a code means, and both decoders reading QR and Code 128 faces."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from calibration.camera_calibration import Calibration
from calibration.layout import Layout
from dealer_assist.errors import Failure
from dealer_assist.rules.cards import Card
from devices.camera.codes import CardCode, parse_card_code
from devices.camera.decoders import DEFAULT_DECODER, DecoderName, make_decoder
from devices.camera.reader import CardReader
from hw_sims.synthetic_camera import SyntheticCamera, card_face
from hw_sims.synthetic_camera_codes import Symbology


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("TS", CardCode(Card("T", "S"))),
        ("QH.0417", CardCode(Card("Q", "H"), "0417")),
        ("2C.a7", CardCode(Card("2", "C"), "a7")),
    ],
)
def test_card_codes_name_a_card_and_maybe_its_deck(text: str, code: CardCode) -> None:
    assert parse_card_code(text) == code
    assert str(code) == text


@pytest.mark.parametrize("text", ["DA:CAL:TL", "10S", "ts", "TS.", "XS", "TS.0417.1", "QH 0417", ""])
def test_other_codes_are_not_cards(text: str) -> None:
    assert parse_card_code(text) is None


def _close_up(code: str, symbology: Symbology, angle: float) -> np.ndarray:
    """A card face, 4 px/mm, turned on a felt-coloured ground."""
    face = card_face(code, symbology, 4.0)
    ground = np.full((600, 600, 3), (40, 100, 30), np.uint8)
    top, left = (600 - face.shape[0]) // 2, (600 - face.shape[1]) // 2
    ground[top : top + face.shape[0], left : left + face.shape[1]] = face
    turned = cv2.warpAffine(
        ground, cv2.getRotationMatrix2D((300, 300), angle, 1.0), (600, 600), borderValue=(40, 100, 30)
    )
    return cv2.cvtColor(turned, cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize("decoder", list(DecoderName))
@pytest.mark.parametrize("symbology", list(Symbology))
def test_both_decoders_read_both_symbologies(decoder: DecoderName, symbology: Symbology) -> None:
    reader = make_decoder(decoder)
    for code, angle in (("TS", 0), ("QH.0417", 5), ("AD.9", -8), ("7C", 180)):
        found = reader.decode(_close_up(code, symbology, angle))
        assert [s.text for s in found] == [code], (code, angle)
        # within 5 mm: a linear code's outline is where the decoder's scan lines crossed it
        assert np.hypot(found[0].centre[0] - 300, found[0].centre[1] - 300) < 20


def test_an_unknown_decoder_is_refused_naming_the_choices() -> None:
    assert make_decoder().name == DEFAULT_DECODER
    with pytest.raises(Failure, match="pyzbar, zxing") as refused:
        make_decoder("opencv")
    assert refused.value.code == "bad_decoder"


def test_a_frame_reading_puts_each_card_in_its_zone_and_sets_markers_aside(
    layout: Layout, calibrated: Callable[..., Calibration]
) -> None:
    camera = SyntheticCamera(layout, seed=21)
    reader = CardReader(calibrated(camera))
    frame = camera.render(camera.deal({"seat_3": ["9H", "KS.0001"], "dealer": ["AC"], "discard": ["2D"]}))
    reading = reader.read(frame.image)
    assert {zone: sorted(map(str, codes)) for zone, codes in reading.by_zone().items()} == {
        zone: sorted(codes) for zone, codes in frame.truth().items()
    }
    assert sorted(reading.other_codes) == ["DA:CAL:BL", "DA:CAL:BR", "DA:CAL:TL", "DA:CAL:TR"]
