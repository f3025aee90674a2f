"""Round builders shared by the rule tests: stacked card lists in, ledger out."""

from __future__ import annotations

import pytest
from rulebook import Cli, make_round

from dealer_assist.play.round_file import settle_round

__all__ = ["make_round"]


@pytest.fixture
def settle():
    return settle_round


@pytest.fixture(params=["in-process", pytest.param("subprocess", marks=pytest.mark.slow)])
def cli(request: pytest.FixtureRequest, tmp_path) -> Cli:
    """The command as the tests run it: in this process, and in the slow lane as a process of its own."""
    return Cli(tmp_path, separate=request.param == "subprocess")
