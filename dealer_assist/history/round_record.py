"""Turn a live round's inputs and operations back into a round file (`round-v1`).

The floor supervisor's proof in a dispute: the exported file, settled by `dealer-assist settle`,
gives the ledger the table recorded. The one subtlety is RULES.md §8.13: in a round file a
`stand` right after a forced end confirms that end, so a stand that follows forced ends is
written after one confirming `stand` for each of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.play.round_file import FORMAT
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, Input, Insure, PlaceWager
from dealer_assist.rules.money import Cents, to_units
from dealer_assist.rules.operations import CardAssigned, CardUse, HandEnded, Operation, StandConfirmed
from dealer_assist.rules.tracker import PlayerDealer


class RoundRecorder:
    def __init__(
        self, profile_id: str, settings: Mapping[str, object], seats: int, player_dealer: PlayerDealer | None
    ) -> None:
        self.profile_id = profile_id
        self.settings = dict(settings)
        self.seats = seats
        self.player_dealer = player_dealer
        self.wagers: dict[int, dict[str, Cents]] = {}
        self.cards: list[str] = []
        self.tokens: dict[int, list[str]] = {}
        self.insurance: dict[int, Cents] = {}
        self._forced_ends: dict[int, int] = {}  # forced ends since the seat's last token

    def _token(self, seat: int, token: str, *, confirms: bool = False) -> None:
        tokens = self.tokens.setdefault(seat, [])
        pending = self._forced_ends.pop(seat, 0)
        if token == "stand":
            tokens.extend(["stand"] * pending)
            if confirms and pending:
                return
        tokens.append(token)

    def record(self, event: Input, ops: tuple[Operation, ...]) -> None:
        """Note one accepted input with the operations it caused."""
        if isinstance(event, PlaceWager):
            seat = self.wagers.setdefault(event.seat, {})
            seat[event.kind.value] = event.amount
            if not event.amount:
                del seat[event.kind.value]
        elif isinstance(event, CardDrawn):
            self.cards.append(str(event.card))
        elif isinstance(event, Insure):
            self.insurance[event.seat] = event.amount
        for op in ops:
            if isinstance(op, CardAssigned) and op.use is CardUse.HIT and op.seat is not None:
                self._token(op.seat, "hit")
            elif isinstance(op, StandConfirmed):
                self._token(op.seat, "stand", confirms=True)
            elif isinstance(op, HandEnded) and op.forced:
                self._forced_ends[op.seat] = self._forced_ends.get(op.seat, 0) + 1
        if isinstance(event, Decide) and not any(isinstance(op, StandConfirmed) for op in ops):
            self._token(event.seat, self._decision(event))

    def _decision(self, event: Decide) -> str:
        if event.action is Action.DOUBLE and event.amount is not None:
            if event.amount != self.wagers[event.seat]["base"]:
                return f"double:{to_units(event.amount)}"
        return event.action.value

    def round_file(self, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "profile": self.profile_id,
            "settings": self.settings,
            "seats": self.seats,
            "wagers": {str(s): {k: to_units(v) for k, v in w.items()} for s, w in sorted(self.wagers.items()) if w},
            "cards": list(self.cards),
            "actions": {str(s): list(t) for s, t in sorted(self.tokens.items())},
        }
        if self.player_dealer is not None:
            data["player_dealer"] = {"seat": self.player_dealer.seat, "bank": to_units(self.player_dealer.bank)}
        if self.insurance:
            data["insurance"] = {str(s): to_units(a) for s, a in sorted(self.insurance.items()) if a}
        if meta:
            data["meta"] = dict(meta)
        return data
