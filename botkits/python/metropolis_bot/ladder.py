"""Playing on a ladder: queue at the matchmaker with the bot's API token and wait for a
seat (botkits/cpp/ladder.h). The seat then plays like any other (Client).

    seat = wait_for_seat("127.0.0.1:50052", "main", API_TOKEN)
    Client().run(Options(host=seat.host, other_hosts=list(seat.other_hosts),
                         game_id=seat.game_id, token=seat.seat_token), decide)

The queue's stream is the ticket's heartbeat: the ticket leaves the queue if this process
dies. When the stream fails (the replica died or is unreachable) it queues again, on the
next replica of the list, with backoff: the matchmaker resumes the same ticket, so the
place in the queue is kept.
"""

import time

import grpc

from . import _stubs
from .client import PlayError, channel

ATTEMPTS = 12  # queueing attempts before giving up, the backoff doubling from 250 ms to 4 s


def split_addresses(addresses):
    """"A,B" -> ["A", "B"]: a list of matchmaker replicas."""
    return [a for a in addresses.split(",") if a]


def retryable(code):
    """What a failed replica or connection looks like (worth retrying on another); anything
    else (a bad token, an unknown ladder) is final."""
    return code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED,
                    grpc.StatusCode.ABORTED)


def _metadata(api_token):
    return [("authorization", f"Bearer {api_token}")]


def _queue_once(address, ladder, api_token, on_queued, tls_ca):
    m = _stubs.modules()
    with channel(address, tls_ca) as ch:
        stub = m.matchmaker_pb2_grpc.MatchmakerStub(ch)
        assignment = None
        for update in stub.Enqueue(m.matchmaker_pb2.EnqueueRequest(ladder=ladder), metadata=_metadata(api_token)):
            kind = update.WhichOneof("update")
            if kind == "assignment":
                assignment = update.assignment
            elif kind == "queued" and on_queued:
                on_queued(update.queued)
    if assignment is None:
        raise PlayError(grpc.StatusCode.UNAVAILABLE, "the queue ended without an assignment")
    return assignment


def wait_for_seat(matchmaker, ladder, api_token, on_queued=None, on_retry=None, tls_ca=None):
    """Queues on `ladder` and returns the metropolis.v1.Assignment (host, other_hosts,
    game_id, seat_token, seat). `matchmaker` is HOST:PORT or several "A,B": replicas tried
    in turn. on_queued(Queued) sees each progress update, on_retry(str) each failure
    retried. Raises PlayError when queueing fails for good."""
    replicas = split_addresses(matchmaker)
    if not replicas:
        raise PlayError(grpc.StatusCode.INVALID_ARGUMENT, "no matchmaker address")
    backoff_ms = 250
    error = None
    for attempt in range(ATTEMPTS):
        address = replicas[attempt % len(replicas)]
        try:
            return _queue_once(address, ladder, api_token, on_queued, tls_ca)
        except grpc.RpcError as e:
            error = PlayError(e.code(), e.details() or "")
        except PlayError as e:
            error = e
        if not retryable(error.code):
            raise error
        if on_retry:
            on_retry(f"{address}: {error.message}")
        time.sleep(backoff_ms / 1000)
        backoff_ms = min(backoff_ms * 2, 4000)
    raise error


def compete(matchmaker, api_token, on_seat, capacity=1, on_retry=None, tls_ca=None):
    """Takes part in tournaments (docs/TOURNAMENTS.md): holds the matchmaker's Compete
    stream, the bot's availability, and calls on_seat(Assignment) for each game it is
    seated in, on this thread (start the game elsewhere and return quickly). on_seat
    returns False to stop. When the stream fails it connects again, to the next replica,
    with backoff; a game sent meanwhile waits for it on the matchmaker. Returns once
    on_seat asked to stop; raises PlayError on a final error."""
    replicas = split_addresses(matchmaker)
    if not replicas:
        raise PlayError(grpc.StatusCode.INVALID_ARGUMENT, "no matchmaker address")
    m = _stubs.modules()
    backoff_ms = 250
    attempt = 0
    while True:
        address = replicas[attempt % len(replicas)]
        attempt += 1
        heard = False
        why = "the stream ended"
        with channel(address, tls_ca) as ch:
            stub = m.tournaments_pb2_grpc.TournamentsStub(ch)
            call = stub.Compete(m.tournaments_pb2.CompeteRequest(capacity=capacity), metadata=_metadata(api_token))
            try:
                for update in call:
                    heard = True
                    if update.WhichOneof("update") == "assignment" and not on_seat(update.assignment):
                        call.cancel()
                        return
            except grpc.RpcError as e:
                if not retryable(e.code()):
                    raise PlayError(e.code(), e.details() or "") from None
                why = e.details() or e.code().name
        # A stream that worked for a while starts the backoff afresh.
        if heard:
            backoff_ms = 250
        if on_retry:
            on_retry(f"{address}: {why}")
        time.sleep(backoff_ms / 1000)
        backoff_ms = min(backoff_ms * 2, 4000)
