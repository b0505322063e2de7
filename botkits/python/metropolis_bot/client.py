"""Plays one seat of a game on a Metropolis game host (GameHost.Play), as the C++ kit's
Client does (botkits/cpp/client.h), so that a bot only decides:

    from metropolis_bot import Client, Options
    result = Client().run(Options(host="127.0.0.1:50051", game_id=GAME, token=TOKEN),
                          lambda decision: decision.legal[0])

What run() takes care of:
  * the stream: bearer token, hello, welcome, events, decisions, rejections (decide is
    asked again, told what was refused; a refused action is never sent twice for one
    decision), pauses, game over;
  * Redirect: the game runs on another host; run() follows, a bounded number of times;
  * a dropped stream: the host's fallback bot plays the seat meanwhile, and reconnecting
    continues where the game stands, so run() reconnects with exponential backoff, a
    bounded number of consecutive attempts, telling the host the last step it saw;
  * failover: when the host cannot be reached and other hosts are known (a ladder's
    Assignment.other_hosts), they are tried in turn: the one that took the game over
    plays it, any other redirects there.
run() returns the Result once the game is over (whatever its end reason) and raises
PlayError with the gRPC status code otherwise.
"""

import hashlib
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import List, Optional

import grpc

from . import _stubs
from .types import RESIGN, Action, Answer, Decision, Event, Result, Welcome, cut_note, finite
from .view_delta import apply_view_delta


@dataclass
class Options:
    host: str = ""          # HOST:PORT
    game_id: str = ""
    token: str = ""         # the seat's token from CreateGame or the matchmaker
    # Other game hosts (Assignment.other_hosts). When the game's host cannot be reached,
    # reconnecting tries them in turn: the host that took the game over from a dead one
    # plays it, and any other sends the seat there.
    other_hosts: List[str] = field(default_factory=list)
    take_over: bool = False  # replace a stream already playing the seat (PlayHello.take_over)
    want_text: bool = False  # also receive the text of every legal action (Action.text)
    # Ask for the events owed at a decision inside it (CAPABILITY_EVENTS_IN_DECISION): one
    # message per decision instead of two; on_events sees the same events in the same order.
    events_in_decision: bool = True
    # Ask for views as deltas against the last decision answered (CAPABILITY_VIEW_DELTAS):
    # about a sixth of the bytes, for more of the host's CPU; the client rebuilds each
    # whole view before decide sees it. Off by default, as in the protocol.
    view_deltas: bool = False
    # PEM CA bundle (bytes): TLS, the host verified against it; None: plaintext.
    tls_ca: Optional[bytes] = None
    # Redirects followed in a row (without a welcome between) before giving up: a host
    # pointing at a host pointing back must not loop.
    max_redirects: int = 3
    # Consecutive failed attempts to reconnect after a stream that had been welcomed
    # drops. The first connection is not retried (a wrong address or token fails at
    # once), except when its host is unreachable and other_hosts are known. 20 attempts
    # with the backoff below are about 70 s: longer than a host restarted in place takes
    # to come back, or a dead host's lease to lapse.
    max_reconnect_attempts: int = 20
    reconnect_initial_backoff_ms: int = 250  # doubles per failed attempt
    reconnect_max_backoff_ms: int = 4000
    # After the game is over (or a redirect) the host ends the stream; a host that does
    # not is hung up on after this long.
    finish_grace_ms: int = 5000


class PlayError(Exception):
    """The seat could not be played to the game's end: `code` is the grpc.StatusCode."""

    def __init__(self, code, message):
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


@dataclass
class RunStats:
    seat: int = -1
    decisions_received: int = 0
    decisions_answered: int = 0
    rejections: int = 0
    reconnects: int = 0  # streams opened again after a drop or a redirect
    redirects: int = 0
    result: Optional[Result] = None


# Status codes after which a seat that was playing reconnects: the connection or the host
# failed, not the request.
_RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED,
              grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL, grpc.StatusCode.RESOURCE_EXHAUSTED}


def retryable_after_drop(code, reconnecting):
    """Whether a stream that ended with `code` after a welcome is worth reconnecting.
    ALREADY_EXISTS while reconnecting means the host has not yet noticed that our old
    stream is gone, which resolves itself. ABORTED (another stream took the seat over)
    is final: fighting it back would make two programs play one seat in turn."""
    return code in _RETRYABLE or (code == grpc.StatusCode.ALREADY_EXISTS and reconnecting)


class SeatLog:
    """What the seat saw, as every Metropolis bot kit records it (--record): per stream
    the welcome step and the last events step, a SHA-256 over every event received as the
    line "type seat other a b c code\\n", and the result. The game checker recomputes the
    digest from the stored game (docs/FAILURES.md, "The checker")."""

    def __init__(self):
        self.digest = hashlib.sha256()
        self.segments = []
        self.last_step = 0
        self.seen = False
        self.backwards = 0
        self.result = None

    def see(self, step):
        if self.seen and step < self.last_step:
            self.backwards += 1
        self.last_step = max(self.last_step, step) if self.seen else step
        self.seen = True

    def welcome(self, step):
        self.see(step)
        self.segments.append([step, step])

    def events(self, events):
        self.see(events.step)
        if not self.segments:
            self.segments.append([0, 0])
        self.segments[-1][1] = events.step
        for e in events.events:
            code = e.action.code if e.HasField("action") else 0
            self.digest.update(f"{e.type} {e.seat} {e.other} {e.a} {e.b} {e.c} {code}\n".encode())

    def record(self, game_id, seat):
        r = self.result
        return json.dumps({"game": game_id, "seat": seat, "segments": self.segments,
                           "events_sha256": self.digest.hexdigest(), "last_step": self.last_step,
                           "backwards": self.backwards, "reason": r.reason, "winner": r.winner,
                           "vp": list(r.vp), "actions": r.actions}, separators=(",", ":"))


def channel(host, tls_ca=None):
    """A channel to `host`: TLS verified against the PEM bundle `tls_ca`, else plaintext."""
    if tls_ca:
        return grpc.secure_channel(host, grpc.ssl_channel_credentials(root_certificates=tls_ca))
    return grpc.insecure_channel(host)


def _answer_key(action):
    """What identifies an answer among the refused ones: its code, or its text."""
    if isinstance(action, str):
        return ("text", action)
    code = getattr(action, "code", action)
    if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < 2**64:
        raise TypeError(f"decide returned {action!r}: return one of decision.legal, an action code, the action's "
                        "text or an Answer")
    return ("code", code)


class _Stream:
    """One Play stream's state."""

    def __init__(self, host, reconnecting):
        self.host = host
        self.reconnecting = reconnecting
        self.requests = queue.Queue()  # what we send; None half-closes the stream
        self.call = None
        self.welcomed = False
        self.game_over = False
        self.redirect = None
        self.local_error = None
        # The decision we are answering, and what we last sent for it.
        self.decision = None
        self.last_answer = None
        # CAPABILITY_VIEW_DELTAS: the view of the last decision answered on this stream
        # (the host's base for the next delta) and its step.
        self.delta_base = None
        self.delta_base_step = -1

    def send(self, message):
        self.requests.put(message)

    def request_iterator(self):
        while (message := self.requests.get()) is not None:
            yield message


class Client:
    """Plays one seat; see the module's text. One Client plays one game at a time."""

    def __init__(self):
        self.stats = RunStats()
        self.seat_log = SeatLog()
        self.welcome = None
        self._options = None

    def run(self, options, decide, on_welcome=None, on_events=None, on_game_over=None, on_log=None):
        """Plays the seat until the game is over, the host refuses the seat or the
        reconnect budget runs out. `decide(decision)` returns one of decision.legal (or its
        code, or a built offer), an Answer with a debug note, or RESIGN to resign the seat. The callbacks, all on this
        thread: on_welcome(Welcome), on_events(step, [Event]), on_game_over(Result),
        on_log(str) for progress worth a line in a log."""
        self._options = options
        self._decide = decide
        self._on_welcome, self._on_events, self._on_game_over, self._on_log = (
            on_welcome, on_events, on_game_over, on_log)
        self.stats = RunStats()
        self.seat_log = SeatLog()
        self.welcome = None
        self._welcomed = False         # some stream of this run was welcomed
        self._stream_welcomed = False  # the last stream that failed was welcomed first

        o = options
        host = o.host
        next_host = 0         # in other_hosts, for reconnecting elsewhere
        reconnecting = False
        failed_attempts = 0   # consecutive, since a stream was last welcomed
        redirects = 0         # likewise
        unreachable = ""      # the host whose stream last failed UNAVAILABLE
        while True:
            end, status, redirect = self._play_once(host, reconnecting)
            if end == "game_over":
                return self.stats.result
            if end == "redirect":
                self.stats.redirects += 1
                if self._stream_welcomed:
                    redirects = 0
                if redirect == unreachable:
                    # The lease still names the host we could not reach. Its lease lapses
                    # and another host takes the game over, or it comes back at its
                    # address: after a backoff, try it again; if still down, the others.
                    if failed_attempts >= o.max_reconnect_attempts:
                        raise PlayError(grpc.StatusCode.UNAVAILABLE,
                                        f"game {o.game_id} stays on unreachable host {redirect} "
                                        f"(gave up after {failed_attempts} attempts)")
                    backoff = self._backoff(failed_attempts)
                    failed_attempts += 1
                    self._log(f"game {o.game_id} is still leased to unreachable {redirect}; "
                              f"trying it again in {backoff} ms")
                    time.sleep(backoff / 1000)
                    host, reconnecting = redirect, self._welcomed
                    continue
                redirects += 1
                if redirects > o.max_redirects:
                    raise PlayError(grpc.StatusCode.ABORTED,
                                    f"redirected more than {o.max_redirects} times (last to {redirect})")
                self._log(f"game {o.game_id} runs on {redirect}: connecting there")
                host, reconnecting, failed_attempts = redirect, self._welcomed, 0
                continue
            if end == "local_error":
                raise PlayError(*status)
            code, message = status
            # A failed stream. A seat that was playing reconnects; before any welcome the
            # failure is about the address, the token or the game, unless the host is
            # unreachable and other hosts are known: it may have died with the game, which
            # one of them takes over. A seat that was playing and asks a host that no
            # longer knows the game (taken over from there, since finished elsewhere) asks
            # the others too: the one that finished it has the result.
            moved = code == grpc.StatusCode.UNAVAILABLE or (self._welcomed and code == grpc.StatusCode.NOT_FOUND)
            lost_host = moved and bool(o.other_hosts)
            retry = (self._welcomed and retryable_after_drop(code, reconnecting)) or lost_host
            if not retry:
                raise PlayError(code, message)
            # A stream that got as far as a welcome worked: its drop starts a fresh budget.
            if self._stream_welcomed:
                failed_attempts = redirects = 0
            unreachable = host if code == grpc.StatusCode.UNAVAILABLE else ""
            if failed_attempts >= o.max_reconnect_attempts:
                raise PlayError(code, f"{message} (gave up after {failed_attempts} reconnect attempts)")
            backoff = self._backoff(failed_attempts)
            failed_attempts += 1
            self._log(f"stream to {host} ended: {code.name}: {message}; reconnecting in {backoff} ms "
                      f"(attempt {failed_attempts} of {o.max_reconnect_attempts})")
            time.sleep(backoff / 1000)
            reconnecting = self._welcomed
            # A host that cannot be reached may be dead: its games go on elsewhere.
            if lost_host:
                hosts = [o.host] + list(o.other_hosts)
                host = hosts[next_host % len(hosts)]
                next_host += 1
                self._log(f"trying game host {host}")

    def record(self):
        """What the seat saw of its finished game, one JSON line for the game checker."""
        return self.seat_log.record(self._options.game_id, self.stats.seat)

    # ---- one stream ------------------------------------------------------------------

    def _backoff(self, failed_attempts):
        o = self._options
        return min(o.reconnect_initial_backoff_ms << min(failed_attempts, 20), o.reconnect_max_backoff_ms)

    def _log(self, message):
        if self._on_log:
            self._on_log(message)

    def _play_once(self, host, reconnecting):
        """One Play stream. Returns (end, status, redirect): end is "game_over",
        "redirect", "local_error" (we hung up on a message we could not read; status is
        (code, message)) or "failed" (status from gRPC)."""
        o = self._options
        pb = _stubs.modules().gamehost_pb2
        s = _Stream(host, reconnecting)
        # A reconnection takes over only if the first stream was allowed to: the host may
        # not yet have noticed that our old stream is gone (ALREADY_EXISTS is retried
        # instead), and taking over unasked could evict another program.
        hello = pb.PlayHello(game_id=o.game_id, take_over=o.take_over, want_text=o.want_text)
        if self.seat_log.seen:
            # How far this seat saw the game: a host whose copy is behind voids it rather
            # than show the seat a different game from there (PlayHello.last_step_seen).
            hello.last_step_seen = self.seat_log.last_step
        if o.events_in_decision:
            hello.capabilities.append(pb.CAPABILITY_EVENTS_IN_DECISION)
        if o.view_deltas:
            hello.capabilities.append(pb.CAPABILITY_VIEW_DELTAS)
        s.send(pb.PlayRequest(hello=hello))
        with channel(host, o.tls_ca) as ch:
            stub = _stubs.modules().gamehost_pb2_grpc.GameHostStub(ch)
            s.call = stub.Play(s.request_iterator(), metadata=[("authorization", f"Bearer {o.token}")])
            status = None
            try:
                for update in s.call:
                    if not self._handle(s, update):
                        break
            except grpc.RpcError as e:
                status = (e.code(), e.details() or "")
            finally:
                s.send(None)  # half-close: nothing more from us
            if s.game_over or s.redirect:
                if status is None:
                    # Nothing more to say; let the host end the stream, but not wait forever.
                    timer = threading.Timer(o.finish_grace_ms / 1000, s.call.cancel)
                    timer.daemon = True
                    timer.start()
                    try:
                        for _ in s.call:
                            pass
                    except grpc.RpcError:
                        pass
                    finally:
                        timer.cancel()
                return ("game_over" if s.game_over else "redirect"), None, s.redirect
            if s.local_error is not None:
                s.call.cancel()
                return "local_error", (grpc.StatusCode.INTERNAL, s.local_error), None
            self._stream_welcomed = s.welcomed
            if status is None:
                # The host closed the stream cleanly mid-game (shutting down, or handing
                # the game over): like a drop, the game goes on without us.
                status = (grpc.StatusCode.UNAVAILABLE, "the host ended the stream before the game was over")
            if not s.welcomed:
                status = (status[0], f"{status[1]} ({host}, game {o.game_id})")
            return "failed", status, None

    def _fail(self, s, message):
        s.local_error = message
        return False

    def _handle(self, s, update):
        """Handles one update; False ends the stream (game over, redirect, or a message we
        cannot read, in s.local_error)."""
        kind = update.WhichOneof("msg")
        if kind == "welcome":
            w = update.welcome
            seats = w.config.num_seats or 4
            if not 0 <= w.seat < seats:
                return self._fail(s, f"welcome: seat {w.seat} is not a seat of the game")
            s.welcomed = True
            if s.reconnecting:
                self.stats.reconnects += 1
            self._welcomed = True
            self.stats.seat = w.seat
            self.welcome = Welcome(w.game_id, s.host, w.seat, w.step, s.reconnecting, w)
            self.seat_log.welcome(w.step)
            self._log(f"{'playing again' if s.reconnecting else 'playing'} seat {w.seat} of game {w.game_id} "
                      f"at step {w.step}")
            if self._on_welcome:
                self._on_welcome(self.welcome)
        elif kind == "events":
            self._handle_events(update.events)
        elif kind == "decision":
            return self._handle_decision(s, update.decision)
        elif kind == "rejected":
            return self._handle_rejected(s, update.rejected)
        elif kind == "game_over":
            s.game_over = True
            result = Result.from_message(update.game_over.result)
            self.stats.result = self.seat_log.result = result
            if self._on_game_over:
                self._on_game_over(result)
            return False
        elif kind == "redirect":
            if not update.redirect.host:
                return self._fail(s, "redirect without a host")
            s.redirect = update.redirect.host
            return False
        elif kind == "paused":
            # The host holds the game until it can save it; the decision owed, if any,
            # comes again afterwards (an answer sent meanwhile is refused as "paused",
            # which says nothing about the action).
            if update.paused.paused:
                s.decision = None
                self._log(f"game paused by its host: {update.paused.reason}")
            else:
                self._log("game goes on after a pause")
        # A message kind newer than this kit (kind None): skipping it is what proto3 readers do.
        return True

    def _handle_events(self, events):
        self.seat_log.events(events)
        if self._on_events:
            self._on_events(events.step, [Event.from_message(e) for e in events.events])

    def _handle_decision(self, s, d):
        if d.HasField("events"):
            self._handle_events(d.events)  # they happened before it
        self.stats.decisions_received += 1
        self.seat_log.see(d.step)
        s.decision = None
        if not s.welcomed:
            return self._fail(s, "a decision came before the welcome")
        view = d.view
        if d.HasField("view_delta"):
            delta = d.view_delta
            if delta.base_step != s.delta_base_step:
                return self._fail(s, f"decision at step {d.step}: a view delta against step {delta.base_step}, but "
                                     f"the last decision answered was at step {s.delta_base_step}")
            try:
                view = apply_view_delta(s.delta_base, delta)
            except ValueError as e:
                return self._fail(s, f"decision at step {d.step}: {e}")
        if not view.legal:
            # The host only asks a seat that has a choice; answering nothing lets the
            # fallback bot take it rather than guessing.
            self._log(f"decision at step {d.step} without legal actions: not answered")
            return True
        texts = list(d.legal_text)
        legal = [Action(code, texts[i] if i < len(texts) else "") for i, code in enumerate(view.legal)]
        s.decision = Decision(d.step, self.stats.seat, view, legal, d.decision_ms_left, d.time_bank_ms_left,
                              self.welcome)
        self._answer(s)
        return True

    def _handle_rejected(self, s, r):
        self.stats.rejections += 1
        self._log(f"step {r.step}: answer rejected: {r.error}")
        # A rejection of an older step (the fallback bot moved when the deadline ran out)
        # needs nothing: a new decision follows if the seat is to act.
        if s.decision is None or r.step != s.decision.step:
            return True
        s.decision.rejected.append(s.last_answer)
        s.decision.rejected_error = r.error
        self._answer(s)
        return True

    def _answer(self, s):
        d = s.decision
        answer = self._decide(d)
        m = _stubs.modules()
        if answer is RESIGN:
            self._log(f"step {d.step}: the bot resigns")
            s.decision = None
            s.send(m.gamehost_pb2.PlayRequest(answer=m.gamehost_pb2.PlayAnswer(step=d.step, resign=True)))
            return
        note, evaluation = "", None
        if isinstance(answer, Answer):
            answer, note, evaluation = answer.action, answer.note or "", answer.evaluation
        key = _answer_key(answer)
        if any(_answer_key(r) == key for r in d.rejected):
            # Sending it again would be refused again, forever.
            self._log(f"step {d.step}: the bot chose {answer} again after it was rejected; "
                      "leaving this decision to the fallback bot")
            s.decision = None
            return
        if not d.rejected:
            self.stats.decisions_answered += 1
        if self._options.view_deltas and s.delta_base_step != d.step:
            # Answering acknowledges the decision's view: the host's next delta is against it.
            s.delta_base, s.delta_base_step = d.view, d.step
        s.last_answer = answer
        action = m.game_pb2.Action(text=answer) if key[0] == "text" else m.game_pb2.Action(code=key[1])
        message = m.gamehost_pb2.PlayAnswer(step=d.step, action=action)
        attach_note(note, evaluation, message)
        s.send(m.gamehost_pb2.PlayRequest(answer=message))


def attach_note(note, evaluation, answer):
    """Sets the PlayAnswer's debug from a note and an evaluation (nothing when both are
    empty): the note cut to the host's 256 bytes at a UTF-8 character boundary, the
    evaluation only when finite (the host refuses an answer with any other)."""
    keep = finite(evaluation)
    if not note and not keep:
        return
    answer.debug.SetInParent()
    if note:
        answer.debug.note = cut_note(note)
    if keep:
        answer.debug.evaluation = float(evaluation)
