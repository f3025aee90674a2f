"""The one rule for every device, as words: no state but "up" is a colour alone, and a state clears
when the device comes back."""

from __future__ import annotations

import pytest

from dealer_assist.table.device_state import Condition, Device, DeviceState, Light, to_tell


@pytest.mark.parametrize("device", list(Device))
@pytest.mark.parametrize("condition", [c for c in Condition if c is not Condition.UP])
def test_every_state_but_up_names_the_device_in_its_word(device, condition):
    state = DeviceState(device, condition, code="JAM" if condition is Condition.FAULT else None)
    assert state.word.startswith(f"{device.label}: ") and state.short.startswith(f"{device.label}: ")
    assert len(state.word) > len(f"{device.label}: ")
    assert state.headline == f"{device.label} {condition.value}".upper()


def test_the_lights_and_the_words():
    assert DeviceState(Device.SHOE, Condition.DOWN).light is Light.RED
    assert DeviceState(Device.SHOE).faulted("JAM", "card jammed").word == "Shoe: JAM fault"
    assert DeviceState(Device.PEEK, Condition.FAILED).light is Light.AMBER
    assert DeviceState(Device.PEEK, Condition.FAILED).word == "Peek: failed — check by hand"
    assert DeviceState(Device.CAMERA, Condition.DOWN).light is Light.AMBER, "the camera only checks: never a stop"
    assert DeviceState(Device.WAGERS, Condition.FAULT, seat=3).word == "Wagers seat 3: fault"


def test_a_device_clears_when_it_comes_back_and_back_is_said_until_the_dealer_goes_on():
    connecting = DeviceState(Device.SHOE, Condition.CONNECTING)
    assert connecting.linked(False) == connecting, "a link never up is not news when it fails again"
    up = connecting.linked(True)
    assert up.condition is Condition.UP, "the first link up is no news"
    down = up.linked(False)
    assert down.condition is Condition.DOWN and down.sentence is not None
    back = down.linked(True)
    assert back.condition is Condition.BACK and back.sentence == "the shoe is back: deal on"
    assert back.settled().condition is Condition.UP
    faulted = up.faulted("JAM", "card jammed at the exit")
    assert faulted.sentence.startswith("Shoe reports JAM: card jammed at the exit. Dealer: stop dealing")
    assert faulted.read().condition is Condition.BACK, "the shoe's next card clears its fault"
    failed = DeviceState(Device.PEEK).read(False, "noread")
    assert failed.condition is Condition.FAILED and failed.read().condition is Condition.BACK
    mismatch = DeviceState(Device.CAMERA).read(False, "seat 1", Condition.MISMATCH)
    assert mismatch.read().condition is Condition.UP, "reads that agree again are no news"


def test_the_banner_tells_the_state_asking_most_of_the_dealer():
    back = DeviceState(Device.PEEK, Condition.BACK)
    camera = DeviceState(Device.CAMERA, Condition.DOWN)
    shoe = DeviceState(Device.SHOE, Condition.DOWN)
    assert to_tell([back, camera, shoe]) == shoe
    assert to_tell([back, camera]) == camera
    assert to_tell([DeviceState(Device.PEEK, Condition.FAILED), DeviceState(Device.SHOE)]) is None, (
        "a failed peek holds the round: its banner says it"
    )
