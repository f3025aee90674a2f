"""Round builders shared by the rule tests: stacked card lists in, ledger out."""
from __future__ import annotations

import pytest

from dealer_assist.round_file import settle_round
from rulebook import make_round

__all__ = ["make_round"]


@pytest.fixture
def settle():
    return settle_round
