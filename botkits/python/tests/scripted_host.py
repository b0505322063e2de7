"""A scripted game host in this process, for the SDK's tests: each Play call runs the
test's script, which reads the client's requests and yields updates as a host would."""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent import futures

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.dirname(HERE)
sys.path.insert(0, KIT)

import metropolis_bot  # noqa: E402
from metropolis_bot import _stubs  # noqa: E402

_generated = None


def stubs():
    """The generated modules: $METROPOLIS_PY_STUBS when set, else generated once into a
    scratch folder (generate.sh needs protoc and grpc_python_plugin)."""
    global _generated
    if os.environ.get("METROPOLIS_PY_STUBS"):
        return _stubs.modules()
    if _generated is None:
        _generated = tempfile.mkdtemp(prefix="metropolis-pysdk-stubs.")
        atexit.register(shutil.rmtree, _generated, ignore_errors=True)
        subprocess.run([os.path.join(KIT, "generate.sh"), _generated], check=True, stdout=subprocess.DEVNULL)
        metropolis_bot.use_stubs(_generated)
    return _stubs.modules()


class ScriptedHost:
    """A GameHost whose Play calls run `script(call, requests, context)`: a generator of
    PlayUpdate messages; `call` counts this host's Play calls from 0, `requests` is an
    iterator of the client's PlayRequest messages. Other hosts' scripts may share state."""

    def __init__(self, script, port=0, tls=None):
        m = stubs()
        self.calls = 0
        self.script = script
        host = self

        class Servicer(m.gamehost_pb2_grpc.GameHostServicer):
            def Play(self, request_iterator, context):
                call = host.calls
                host.calls += 1
                yield from host.script(call, request_iterator, context)

        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        m.gamehost_pb2_grpc.add_GameHostServicer_to_server(Servicer(), self.server)
        address = f"127.0.0.1:{port}"
        if tls:
            key, cert = tls
            self.port = self.server.add_secure_port(address, grpc.ssl_server_credentials([(key, cert)]))
        else:
            self.port = self.server.add_insecure_port(address)
        self.server.start()

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def stop(self):
        self.server.stop(0).wait()


def free_port():
    """A loopback port nothing listens on (for an unreachable host)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- messages ---------------------------------------------------------------------------

def code(type_name, a=0, b=0, c=0):
    return metropolis_bot.make_code(type_name, a, b, c)


def welcome(step=0, seat=0, game_id="g1"):
    m = stubs()
    u = m.gamehost_pb2.PlayUpdate()
    u.welcome.game_id = game_id
    u.welcome.seat = seat
    u.welcome.step = step
    u.welcome.config.num_seats = 4
    return u


def decision(step, legal, texts=(), pending=None):
    """A decision whose view holds only what the client reads: the legal codes and, when
    given, the pending stack's top (kind, seat)."""
    m = stubs()
    u = m.gamehost_pb2.PlayUpdate()
    u.decision.step = step
    u.decision.view.viewer = 0
    u.decision.view.legal.extend(legal)
    u.decision.legal_text.extend(texts)
    u.decision.decision_ms_left = 1000
    u.decision.time_bank_ms_left = 60000
    if pending is not None:
        p = u.decision.view.position.pending.add()
        p.kind, p.seat = pending
    return u


def events(step, *items):
    """items: (type, seat, a) or (type, seat, a, action_code)."""
    m = stubs()
    u = m.gamehost_pb2.PlayUpdate()
    u.events.step = step
    for item in items:
        e = u.events.events.add()
        e.type, e.seat, e.a = item[0], item[1], item[2]
        if len(item) > 3:
            e.action.code = item[3]
    return u


def rejected(step, error="BLD-1: not connected"):
    u = stubs().gamehost_pb2.PlayUpdate()
    u.rejected.step = step
    u.rejected.error = error
    return u


def paused(on, reason="the game's store cannot be written"):
    u = stubs().gamehost_pb2.PlayUpdate()
    u.paused.paused = on
    u.paused.reason = reason
    return u


def redirect(host, game_id="g1"):
    u = stubs().gamehost_pb2.PlayUpdate()
    u.redirect.game_id = game_id
    u.redirect.host = host
    return u


def game_over(winner=2, vp=(13, 9, 8, 7)):
    u = stubs().gamehost_pb2.PlayUpdate()
    u.game_over.result.reason = 1  # END_REASON_WON
    u.game_over.result.winner = winner
    u.game_over.result.vp.extend(vp)
    u.game_over.result.actions = 1234
    u.game_over.result.turns = 56
    return u


class ScriptedMatchmaker:
    """A Matchmaker and Tournaments service whose Enqueue and Compete calls run
    `enqueue(call, request, context)` and `compete(call, request, context)`, generators of
    EnqueueUpdate and CompeteUpdate messages."""

    def __init__(self, enqueue=None, compete=None):
        m = stubs()
        self.enqueue_calls = self.compete_calls = 0
        self.requests = []
        mm = self

        class Matchmaker(m.matchmaker_pb2_grpc.MatchmakerServicer):
            def Enqueue(self, request, context):
                call = mm.enqueue_calls
                mm.enqueue_calls += 1
                mm.requests.append((request, dict(context.invocation_metadata())))
                yield from enqueue(call, request, context)

        class Tournaments(m.tournaments_pb2_grpc.TournamentsServicer):
            def Compete(self, request, context):
                call = mm.compete_calls
                mm.compete_calls += 1
                mm.requests.append((request, dict(context.invocation_metadata())))
                yield from compete(call, request, context)

        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        m.matchmaker_pb2_grpc.add_MatchmakerServicer_to_server(Matchmaker(), self.server)
        m.tournaments_pb2_grpc.add_TournamentsServicer_to_server(Tournaments(), self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def stop(self):
        self.server.stop(0).wait()


def queued(position, size):
    u = stubs().matchmaker_pb2.EnqueueUpdate()
    u.queued.position, u.queued.queue_size = position, size
    return u


def assignment(host, game_id, token, seat=0, other_hosts=(), tournament="", update="EnqueueUpdate"):
    m = stubs()
    u = (m.matchmaker_pb2.EnqueueUpdate if update == "EnqueueUpdate" else m.tournaments_pb2.CompeteUpdate)()
    a = u.assignment
    a.host, a.game_id, a.seat_token, a.seat, a.tournament = host, game_id, token, seat, tournament
    a.other_hosts.extend(other_hosts)
    return u


def compete_status(identity=7, capacity=1):
    u = stubs().tournaments_pb2.CompeteUpdate()
    u.status.identity_id, u.status.capacity = identity, capacity
    return u
