"""Events: the backbone that the journal, the LEDs, the web view and replay share.

An event is a type, a time (ms on the pipeline's clock) and the fields of
docs/CONTRACTS.md §4.  Its JSON form puts ``t`` and ``type`` first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tavla_pi.events.types import EventType, UnknownType, event_type


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with its docs/CONTRACTS.md §4 fields.

    ``type`` is an :class:`EventType`; only an event read back from a
    journal may carry an :data:`UnknownType` (a later version's event).
    """

    type: EventType | UnknownType
    t: int
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.type, EventType):  # a member's value as a plain string
            object.__setattr__(self, "type", event_type(self.type))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/CONTRACTS.md §4: ``t``, ``type``, then the fields."""
        return {"t": self.t, "type": str(self.type), **self.fields}

    def to_json(self) -> str:
        """One line of JSON, no trailing newline."""
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event from its JSON object (the journal's reader validates first)."""
        rest = {k: v for k, v in data.items() if k not in ("t", "type")}
        return cls(type=event_type(str(data["type"])), t=int(data["t"]), fields=rest)
