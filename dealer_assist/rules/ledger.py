"""The itemized settlement of one round (`ledger-v1`, ROUND-FILE.md "Output")."""

from __future__ import annotations

from typing import Any

from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import to_units
from dealer_assist.rules.outcomes import standing
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.settlement import banker_net, seat_nets
from dealer_assist.rules.tracker import RoundTracker

__all__ = ["ledger"]


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(card) for card in cards]


def ledger(tracker: RoundTracker, unused_cards: int = 0) -> dict[str, Any]:
    """The ledger of a settled round as plain JSON data; amounts in currency units."""
    if tracker.phase is not Phase.SETTLED:
        raise ValueError(f"the round is {tracker.phase}, not settled")
    profile = tracker.profile
    dealer = standing(tracker.dealer, profile)
    hands = []
    for hand in tracker.final_hands:
        player = standing(hand.cards, profile, from_split=hand.from_split)
        hands.append(
            {
                "seat": hand.seat,
                "hand": hand.hand,
                "cards": _cards(hand.cards),
                "total": player.total,
                "status": str(player.status),
                "doubled": hand.doubled,
                "surrendered": hand.surrendered,
            }
        )
    nets = seat_nets(tracker.rows, tracker.wagers)
    settlements = [
        {
            "seat": row.seat,
            "hand": row.hand,
            "wager": str(row.wager),
            "stake": to_units(row.stake),
            "result": str(row.result),
            "in_action": to_units(row.in_action),
            "amount": to_units(row.amount),
        }
        for row in tracker.rows
    ]
    pd = tracker.player_dealer
    player_fees, pd_fee = tracker.fees
    return {
        "format": "ledger-v1",
        "profile": profile.id,
        "action_seat": tracker.action_seat,
        "dealer": {"cards": _cards(tracker.dealer), "total": dealer.total, "status": str(dealer.status)},
        "hands": hands,
        "settlements": settlements,
        "seats": {str(seat): {"net": to_units(net)} for seat, net in sorted(nets.items())},
        "player_dealer": None
        if pd is None
        else {
            "seat": pd.seat,
            "bank": to_units(pd.bank),
            "net": to_units(banker_net(tracker.rows)),
        },
        "fees": {"players": player_fees / 100, "player_dealer": pd_fee / 100},
        "unused_cards": unused_cards,
    }
