"""metropolis_bot: the Python SDK for Metropolis bots (botkits/README.md).

Plays seats of games on Metropolis game hosts over gRPC: one game (Client), a ladder's
queue (wait_for_seat) and tournaments (compete), with typed decisions and events. Pure
Python over grpcio and protobuf; the stubs come from botkits/python/generate.sh.

    from metropolis_bot import Client, Options
    result = Client().run(Options(host="127.0.0.1:50051", game_id=GAME, token=TOKEN),
                          lambda decision: decision.legal[0])
"""

try:
    import grpc  # noqa: F401
    import google.protobuf  # noqa: F401
except ImportError as e:
    raise ImportError(f"metropolis_bot needs grpcio and protobuf ({e}): on Debian apt-get install python3-grpcio "
                      "python3-protobuf, and run Debian's /usr/bin/python3 (a pyenv or virtualenv python3 does not "
                      "see them)") from e

from ._stubs import StubsMissing, use_stubs  # noqa: E402
from .client import Client, Options, PlayError, RunStats, attach_note, channel, retryable_after_drop  # noqa: E402
from .view_delta import apply_view_delta  # noqa: E402,F401
from .types import (RESIGN, Action, Answer, Decision, Event, Pending, Result, Welcome, action_type,  # noqa: E402
                    cut_note, make_code, names)

__all__ = [
    "RESIGN", "Action", "Answer", "Client", "Decision", "Event", "Options", "Pending", "PlayError", "Result", "RunStats",
    "StubsMissing", "Welcome", "action_type", "attach_note", "channel", "cut_note", "make_code", "names",
    "retryable_after_drop", "use_stubs",
]
