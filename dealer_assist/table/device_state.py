"""One rule for every device: a state that changes what the dealer must do is said in words.

Each device of the table (the shoe, the peek device, the overhead camera, the wager reader) is in
one `DeviceState` at a time. The state gives its light (green, amber or red), the word beside the
light in the top bar, and the banner's headline and sentence, which name the device (and seat)
and the next step. A light is never only a colour: every state that is not plain "up" has a word.
The words are defined here once; the top bar, the banner and the prompt line only show them.

A state changes by what the device says (`linked`, `faulted`, `read`) and clears when the device
comes back: its words then say it is back until the dealer's next accepted input (`settled`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum

__all__ = ["Condition", "Device", "DeviceState", "Light"]


class Device(StrEnum):
    """A device as the journal names it; `label` is its name on the screens."""

    SHOE = "shoe"
    PEEK = "peek"
    CAMERA = "camera"
    WAGERS = "wagers"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Light(IntEnum):
    """The light beside the device's name, by how much it asks of the dealer."""

    GREEN = 0
    AMBER = 1
    RED = 2


class Condition(StrEnum):
    CONNECTING = "connecting"  # not up yet since the table opened
    UP = "up"  # all is well
    BACK = "back"  # up again after being down or faulted, said until the dealer's next input
    DOWN = "down"  # its link is down (or, for the camera, no frames come)
    FAULT = "fault"  # it reported a fault (a shoe's JAM) or sends what cannot be read (the camera's frames)
    FAILED = "failed"  # it answered, but nothing the round can use (a peek's NOREAD, NOCARD or no answer in time)
    MISMATCH = "mismatch"  # what it reads disagrees with the round (the camera against the shoe)
    IMPAIRED = "impaired"  # up, but part of it cannot read (a wager reader's spots under a fault): `detail` says which


LIGHTS = {
    Condition.CONNECTING: Light.AMBER,
    Condition.UP: Light.GREEN,
    Condition.BACK: Light.GREEN,
    Condition.DOWN: Light.RED,
    Condition.FAULT: Light.RED,
    Condition.FAILED: Light.AMBER,
    Condition.MISMATCH: Light.AMBER,
    Condition.IMPAIRED: Light.AMBER,
}
# A device that only checks the others (the camera against the shoe): its troubles ask for care, not
# for a stop, so its light goes no further than amber.
CHECKS_ONLY = frozenset({Device.CAMERA})

# What the state says beside the light, after "<Device>: " (a fault adds its code in front).
WORDS = {
    Condition.CONNECTING: "connecting",
    Condition.UP: "up",
    Condition.BACK: "back",
    Condition.DOWN: "link down",
    Condition.FAULT: "fault",
    Condition.FAILED: "failed — check by hand",
    Condition.MISMATCH: "mismatch — check the card",
    Condition.IMPAIRED: "part faulted",
}
# The word where the top bar has little room.
SHORT = {Condition.DOWN: "down", Condition.FAILED: "failed", Condition.MISMATCH: "mismatch"}

# The next step, after what happened: one entry per device and state the dealer must act on or hear of.
# None: nothing said beyond the light. A failed peek holds the round and the camera's mismatch is
# reported with both cards: the banner says those already, and the light keeps the word after.
NEXT: dict[tuple[Device, Condition], str | None] = {
    (Device.SHOE, Condition.DOWN): "the shoe's link is down. Dealer: deal no card until the light says Shoe back; "
    "a floor supervisor calls a technician if it stays down",
    (Device.SHOE, Condition.FAULT): "Dealer: stop dealing and call a floor supervisor to clear the shoe; "
    "the light turns green when the shoe reads its next card",
    (Device.SHOE, Condition.BACK): "the shoe is back: deal on",
    (Device.PEEK, Condition.DOWN): "the peek device's link is down: at the peek the round waits for a floor "
    "supervisor to check the hole card by hand",
    (Device.PEEK, Condition.FAULT): "at the peek the round waits for a floor supervisor to check the hole card "
    "by hand, until the peek device answers again",
    (Device.PEEK, Condition.FAILED): None,
    (Device.PEEK, Condition.BACK): "the peek device is back: it answers the peeks again",
    (Device.CAMERA, Condition.DOWN): "no frames come from the overhead camera. Dealer: deal on, the shoe's reads "
    "go unchecked; a floor supervisor calls a technician",
    (Device.CAMERA, Condition.FAULT): "Dealer: deal on, the shoe's reads go unchecked; a floor supervisor has the "
    "camera looked at if it lasts",
    (Device.CAMERA, Condition.MISMATCH): None,
    (Device.CAMERA, Condition.BACK): "the overhead camera is back: it checks the shoe's cards again",
    (Device.WAGERS, Condition.DOWN): None,
    (Device.WAGERS, Condition.FAULT): None,
    (Device.WAGERS, Condition.BACK): None,
    (Device.WAGERS, Condition.IMPAIRED): None,  # the prompt line and the seat tile name the faulted spot
}


@dataclass(frozen=True, slots=True)
class DeviceState:
    """A device's state; `detail` is what the device said (a fault's code and text, a peek's answer),
    `seat` the seat it concerns, if one (a wager reader's spot)."""

    device: Device
    condition: Condition = Condition.UP
    detail: str | None = None
    code: str | None = None
    seat: int | None = None

    @property
    def key(self) -> tuple[Device, int | None]:
        return self.device, self.seat

    @property
    def link_up(self) -> bool:
        return self.condition not in (Condition.CONNECTING, Condition.DOWN)

    @property
    def light(self) -> Light:
        light = LIGHTS[self.condition]
        return min(light, Light.AMBER) if self.device in CHECKS_ONLY else light

    @property
    def word(self) -> str:
        """Beside the light: "Shoe: link down", "Shoe: JAM fault", "Peek: failed — check by hand"."""
        if self.condition is Condition.UP:
            return f"{self.device.label} up"
        return f"{self._who}: {self._what(WORDS[self.condition])}"

    @property
    def short(self) -> str:
        """The word where the top bar has little room: the name alone while all is well."""
        if self.condition is Condition.UP:
            return self.device.label
        return f"{self._who}: {self._what(SHORT.get(self.condition, WORDS[self.condition]))}"

    @property
    def headline(self) -> str:
        """The banner's title: "SHOE DOWN", "PEEK FAULT", "CAMERA BACK"."""
        return f"{self._who} {self.condition.value}".upper()

    @property
    def sentence(self) -> str | None:
        """What happened and the next step, or None when the light alone says it."""
        step = NEXT.get((self.device, self.condition))
        if step is None:
            return None
        if self.condition is Condition.FAULT and self.detail:
            return f"{self.device.label} reports {self.detail}. {step[0].upper()}{step[1:]}"
        return step

    @property
    def _who(self) -> str:
        return self.device.label if self.seat is None else f"{self.device.label} seat {self.seat}"

    def _what(self, word: str) -> str:
        if self.condition is Condition.IMPAIRED and self.detail:
            return self.detail
        return f"{self.code} {word}" if self.condition is Condition.FAULT and self.code else word

    # --- changes ------------------------------------------------------------------------------------

    def linked(self, up: bool) -> DeviceState:
        """The link went down, or came up: the first time since the table opened is no news."""
        if not up:
            if self.condition is Condition.CONNECTING:
                return self
            return DeviceState(self.device, Condition.DOWN, seat=self.seat)
        if self.condition in (Condition.CONNECTING, Condition.DOWN):
            back = Condition.BACK if self.condition is Condition.DOWN else Condition.UP
            return DeviceState(self.device, back, seat=self.seat)
        return self

    def faulted(self, code: str | None, text: str) -> DeviceState:
        """The device reported a fault, or what it sent could not be used."""
        detail = f"{code}: {text}" if code else text
        return DeviceState(self.device, Condition.FAULT, detail, code, self.seat)

    def read(
        self, usable: bool = True, detail: str | None = None, condition: Condition = Condition.FAILED
    ) -> DeviceState:
        """The device read something: a usable read clears a fault or failure (it is back) and a
        mismatch (the reads agree again: no news); one the round cannot use is `condition` with `detail`."""
        if not usable:
            return DeviceState(self.device, condition, detail, seat=self.seat)
        if self.condition in (Condition.FAULT, Condition.FAILED):
            return DeviceState(self.device, Condition.BACK, seat=self.seat)
        return DeviceState(self.device, seat=self.seat) if self.condition is Condition.MISMATCH else self

    def impaired(self, detail: str | None) -> DeviceState:
        """Part of a device that is up cannot read (`detail`: "seat 3 base faulted"), or all of it can again."""
        if detail is not None and self.link_up:
            return DeviceState(self.device, Condition.IMPAIRED, detail, seat=self.seat)
        if detail is None and self.condition is Condition.IMPAIRED:
            return DeviceState(self.device, Condition.BACK, seat=self.seat)
        return self

    def settled(self) -> DeviceState:
        """The dealer went on: "back" has been said."""
        return replace(self, condition=Condition.UP) if self.condition is Condition.BACK else self


def to_tell(states: Iterable[DeviceState]) -> DeviceState | None:
    """The device state to put in words now: of those with a sentence, the one asking most of the dealer."""
    return max((state for state in states if state.sentence is not None), key=lambda state: state.light, default=None)
