"""Typed access to what the host sends: decisions with their legal actions, events, the
result. Names (action types, pending-decision kinds, event types) come from the protocol
reference the engine generates (docs/protocol.json), not from numbers written here."""

import math
from dataclasses import dataclass, field
from typing import List, Optional

from . import _stubs


class Names:
    """The protocol's names by number, read from docs/protocol.json."""

    def __init__(self, reference):
        self.actions = {a["type"]: a["name"] for a in reference["actions"]}
        self.action_types = {name: t for t, name in self.actions.items()}
        self.pending = {p["kind"]: p["name"] for p in reference["pending"]}
        self.pending_roles = {p["kind"]: p["role"] for p in reference["pending"]}
        self.pending_kinds = {name: k for k, name in self.pending.items()}
        self.events = {e["type"]: e["name"] for e in reference["events"]}
        self.event_types = {name: t for t, name in self.events.items()}


_names = None


def names():
    global _names
    if _names is None:
        _names = Names(_stubs.protocol())
    return _names


def action_type(name):
    """The type number of an action type name, e.g. action_type("build_road") == 12."""
    try:
        return names().action_types[name]
    except KeyError:
        raise ValueError(f"no action type {name!r} in the protocol reference") from None


def make_code(type_name, a=0, b=0, c=0):
    """An action code from its type's name and parameters: type << 56 | a << 16 | b << 8 | c."""
    for value in (a, b, c):
        if not 0 <= value <= 255:
            raise ValueError(f"action parameter {value} is not a byte")
    return action_type(type_name) << 56 | a << 16 | b << 8 | c


@dataclass(frozen=True)
class Action:
    """One action as a code (docs/PROTOCOL.md: code = type << 56 | a << 16 | b << 8 | c),
    with its type's name and, when the stream asked for it (want_text), its text."""
    code: int
    text: str = ""

    @property
    def type(self):
        return self.code >> 56

    @property
    def name(self):
        """The action type's name, e.g. "build_road"; "type_N" for a type this reference lacks."""
        return names().actions.get(self.type, f"type_{self.type}")

    @property
    def a(self):
        return self.code >> 16 & 0xFF

    @property
    def b(self):
        return self.code >> 8 & 0xFF

    @property
    def c(self):
        return self.code & 0xFF

    def __str__(self):
        return self.text or f"{self.name} {self.a} {self.b} {self.c} ({self.code:#018x})"


@dataclass(frozen=True)
class Pending:
    """One entry of the pending-decision stack (docs/PROTOCOL.md, "Pending decisions")."""
    kind: int
    seat: int
    a: int
    b: int
    c: int

    @property
    def name(self):
        return names().pending.get(self.kind, f"kind_{self.kind}")

    @property
    def role(self):
        """"decision", "chance" or "automatic"."""
        return names().pending_roles.get(self.kind, "unknown")


@dataclass(frozen=True)
class Event:
    """What happened, as the seat may see it (a hidden card reads 254)."""
    type: int
    seat: int
    other: int
    a: int
    b: int
    c: int
    action: Optional[Action] = None  # for "action" and "trade_executed" events

    @property
    def name(self):
        """The event type's name, e.g. "produced"; "type_N" for a type this reference lacks."""
        return names().events.get(self.type, f"type_{self.type}")

    @staticmethod
    def from_message(e):
        action = Action(e.action.code, e.action.text) if e.HasField("action") else None
        return Event(e.type, e.seat, e.other, e.a, e.b, e.c, action)


@dataclass
class Welcome:
    """The start of a stream: the seat, the game's configuration and players."""
    game_id: str
    host: str
    seat: int
    step: int
    reconnected: bool
    message: object  # the metropolis.v1.Welcome itself: config, players, deadlines

    @property
    def config(self):
        return self.message.config

    @property
    def num_seats(self):
        return self.message.config.num_seats or 4


@dataclass
class Decision:
    """The seat must act. Answer with one of `legal` (its code, or the Action itself), or a
    trade offer or counter built with make_code/Action text (docs/PROTOCOL.md)."""
    step: int
    seat: int
    view: object             # the metropolis.v1.View: everything the seat may see
    legal: List[Action]      # in the host's order; each with its text when want_text
    decision_ms_left: int
    time_bank_ms_left: int
    welcome: Welcome
    # Earlier answers to this same decision the host refused, oldest first, and its
    # reason for the last one. Answer with something else: a refused action is never
    # sent twice for one decision (the decision is then left to the fallback bot).
    rejected: List[object] = field(default_factory=list)
    rejected_error: str = ""

    @property
    def position(self):
        return self.view.position

    @property
    def me(self):
        """The seat's own PlayerPosition (hand, progress cards, pieces left, ...)."""
        return self.view.position.players[self.seat]

    @property
    def pending(self):
        """The pending entry being decided (the top of the stack), or None on the seat's turn."""
        stack = self.view.position.pending
        if not stack:
            return None
        top = stack[-1]
        return Pending(top.kind, top.seat, top.a, top.b, top.c)

    @property
    def kind(self):
        """What is being decided: the pending kind's name (e.g. "discard", "trade_answer"),
        or "turn" when the stack is empty."""
        pending = self.pending
        return pending.name if pending is not None else "turn"

    def legal_of(self, name):
        """The legal actions of one type, by name: decision.legal_of("build_settlement")."""
        return [a for a in self.legal if a.name == name]


@dataclass(frozen=True)
class Result:
    """How the game ended."""
    reason: str       # "WON", "LENGTH_CAP" or "ABORTED"
    winner: int       # -1 without a winner
    vp: List[int]     # per seat, hidden victory point cards included
    actions: int
    turns: int

    @staticmethod
    def from_message(r):
        name = _stubs.modules().game_pb2.EndReason.Name(r.reason) if r.reason in \
            _stubs.modules().game_pb2.EndReason.values() else str(r.reason)
        if name.startswith("END_REASON_"):
            name = name[len("END_REASON_"):]
        return Result(name, r.winner, list(r.vp), r.actions, r.turns)


@dataclass
class Answer:
    """What a decide function may return instead of a bare action: the action and a note
    for the bot's author (docs/GAMEHOST.md, "Debug notes"), read back with the replay.
    `action` is a code (int), an Action, anything with a `code` (the local engine's
    metropolis.Action), or the action's text. The note is cut to 256 bytes at a character
    boundary; an evaluation that is not a finite number is left out (the host would refuse
    the answer)."""
    action: object
    note: str = ""
    evaluation: Optional[float] = None


MAX_NOTE_BYTES = 256  # the host's limit (PlayAnswer.debug)


class _Resign:
    """The type of RESIGN."""

    def __repr__(self):
        return "RESIGN"


# What a decide function returns to resign the seat (PlayAnswer.resign): the game ends
# at once for every seat, stored as resigned with this seat last (docs/GAMEHOST.md,
# "Resigning"). Final: there is no taking it back.
RESIGN = _Resign()


def cut_note(text):
    """`text` as UTF-8 of at most 256 bytes, cut where a character begins."""
    data = text.encode("utf-8")
    if len(data) <= MAX_NOTE_BYTES:
        return text
    length = MAX_NOTE_BYTES
    while length > 0 and data[length] & 0xC0 == 0x80:  # a continuation byte: back off
        length -= 1
    return data[:length].decode("utf-8")


def finite(value):
    return value is not None and isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)
