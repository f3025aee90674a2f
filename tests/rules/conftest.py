"""Round builders shared by the rule tests: stacked card lists in, ledger out."""
from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.round_file import settle_round


def make_round(profile: str, cards: list[str], wagers: dict[str, dict[str, float]], *,
               actions: dict[str, list[str]] | None = None, pd: dict[str, float] | None = None,
               **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"format": "round-v1", "profile": profile, "wagers": wagers, "cards": cards,
                            "actions": actions or {}}
    if pd is not None:
        data["player_dealer"] = pd
    data.update(extra)
    return data


@pytest.fixture
def settle():
    return settle_round
