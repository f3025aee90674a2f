"""Refusals a program can check: one code per meaning, and a class that says whose fault it is."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from dealer_assist.errors import CommandCode, CommandError, Failure
from dealer_assist.journal.errors import JournalError
from dealer_assist.play.round_file import settle_round
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, PlaceWager, WagerKind
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.tracker import RoundTracker
from devices.errors import DeviceError
from pit.errors import PitCode

PRODUCT = ("dealer_assist", "devices", "calibration", "hw_sims", "ui", "pit")
ROUND = {
    "format": "round-v1",
    "profile": "sd-buster-a",
    "wagers": {"1": {"base": 10}},
    "cards": ["TS", "6H", "9D", "7C"],
    "actions": {"1": ["stand"]},
}


def test_every_code_has_one_member():
    """An Enum quietly turns a repeated value into an alias: two names would then share one code."""
    assert len(Refusal.__members__) == len({member.value for member in Refusal.__members__.values()})
    assert all(name == member.name for name, member in Refusal.__members__.items())


def test_every_exception_the_product_defines_is_a_failure():
    """A program checks `code` and a person reads `message` whatever failed: no exception class of its own outside."""
    outside = []
    for package in PRODUCT:
        for found in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            module = importlib.import_module(found.name)
            outside += [
                f"{module.__name__}.{name}"
                for name, kind in vars(module).items()
                if isinstance(kind, type)
                and issubclass(kind, BaseException)
                and kind.__module__ == module.__name__
                and not issubclass(kind, Failure)
            ]
    assert outside == []


def test_the_json_object_carries_the_plain_code():
    error = InputError(CommandCode.MALFORMED_JSON, "x.json: Expecting value at line 1 column 1")
    assert error.to_json() == {"error": {"code": "malformed_json", "message": error.message, "rule": None}}
    assert type(error.to_json()["error"]["code"]) is str  # type: ignore[index]


def test_a_broken_round_file_is_bad_input_and_a_forbidden_move_is_a_rule_refusal():
    with pytest.raises(InputError) as broken:
        settle_round(ROUND | {"cards": "TS"})
    assert broken.value.code is Refusal.BAD_FIELD
    with pytest.raises(RuleError) as forbidden:
        settle_round(ROUND | {"actions": {"1": ["split"]}})
    assert forbidden.value.code == "illegal_action" and type(forbidden.value) is RuleError
    with pytest.raises(RuleError) as short:
        settle_round(ROUND | {"cards": ["TS", "6H", "9D"]})
    assert short.value.code is Refusal.TOO_FEW_CARDS and not isinstance(short.value, InputError)


def test_the_tracker_refuses_by_rule_and_the_kinds_stay_apart():
    tracker = RoundTracker(load_profile("sd-buster-a"))
    refusal = tracker.verify(PlaceWager(1, WagerKind.BASE, 1))
    assert refusal is not None and refusal.code is Refusal.WAGER_LIMIT and refusal.rule == "7"
    assert issubclass(InputError, RuleError) and not isinstance(refusal, InputError)
    for kind in (DeviceError, JournalError, CommandError):  # not the rules' refusals: failures of their own layer
        assert issubclass(kind, Failure) and not issubclass(kind, RuleError) and not isinstance(refusal, kind)


def test_a_decision_that_is_no_action_is_refused_by_name_and_changes_nothing():
    tracker = RoundTracker(load_profile("sd-buster-a"))
    tracker.apply(PlaceWager(1, WagerKind.BASE, 1_000))
    for code in ("TS", "6H", "9D", "7C"):
        tracker.apply(CardDrawn(parse_card(code)))
    before = tracker.prompt()
    with pytest.raises(InputError) as caught:
        tracker.apply(Decide(1, 0, "hit"))  # type: ignore[arg-type]  # a value no Action has
    assert caught.value.code is Refusal.ILLEGAL_ACTION and "'hit'" in caught.value.message
    assert tracker.prompt() == before == "Seat 1 to act on hard 19"
    assert tracker.verify(Decide(1, 0, Action.STAND)) is None


def test_a_command_refused_at_its_start_is_in_the_tree_and_keeps_its_exit_status():
    usage = CommandError(CommandCode.BAD_ARGUMENTS, "--http 'x': use HOST:PORT")
    store = CommandError(PitCode.STORE_UNREACHABLE, "the store cannot be reached", 1)
    assert isinstance(usage, Failure) and (usage.exit_code, store.exit_code) == (2, 1)
    assert (usage.code, store.code, PitCode.ALREADY_EXISTS) == ("bad_arguments", "store_unreachable", "exists")
