"""The local engine (python/metropolis, docs/PYTHON.md) from a decision: what the host
sent, as the engine's own GameConfig and View, so that a bot can search, sample the
hidden cards or compute the observation vector locally.

    view = local_view(decision)            # a metropolis.View
    state = view.sample_state(seed)        # a full State consistent with it
    action = metropolis.Bot("search:iterations=100").choose(view, stream)[0]

The engine reads the messages itself (metropolis.config_from_message and
view_from_message), with the checks the host's own reader makes. Its view is the one the
host computed for the seat, knowledge of other hands included; its legal actions are the
decision's. The engine's module must be importable: PYTHONPATH=build/<preset>/python
after building the target metropolis_python_module, or `cmake --install ... --component
python` (docs/PYTHON.md).
"""

from . import _stubs


class EngineMissing(ImportError):
    """The local engine's module cannot be imported; the message says how to get it."""


def engine():
    """The local engine's package, metropolis (with the stubs' folder on its path)."""
    _stubs.modules()  # the stubs first: they extend the package's path (see _stubs)
    try:
        import metropolis
        metropolis.view_from_message  # noqa: B018: the engine, not the stubs' namespace alone
    except (ImportError, AttributeError):
        raise EngineMissing("the local engine's module (metropolis._core) is not importable: build the target "
                            "metropolis_python_module and run with PYTHONPATH=build/<preset>/python "
                            "(docs/PYTHON.md)") from None
    return metropolis


def local_config(welcome):
    """The engine's GameConfig of the game (from the Welcome, which carries it complete),
    read once per stream and kept with the Welcome."""
    config = getattr(welcome, "engine_config", None)
    if config is None:
        config = welcome.engine_config = engine().config_from_message(welcome.message.config)
    return config


def local_view(decision, exclude=()):
    """The decision's view as the engine's View. `exclude`: action codes to leave out of
    its legal actions (those the host refused), as long as some remain."""
    m = engine()
    message = decision.view
    if exclude:
        codes = [c for c in message.legal if c not in set(exclude)]
        if codes:
            message = type(message)()
            message.CopyFrom(decision.view)
            del message.legal[:]
            message.legal.extend(codes)
    return m.view_from_message(message, local_config(decision.welcome))


def engine_decider(spec):
    """A factory for --bot SPEC: make(seed, notes) -> decide, playing the local engine's
    built-in bot `spec` (docs/BOTS.md: heuristic, search:iterations=200, ...). Raises
    ValueError for a spec the engine does not know, EngineMissing without the engine."""
    m = engine()
    m.Bot(spec)  # refused here, while the flags are read, rather than at the first decision

    def make(seed, notes):
        bot = m.Bot(spec)
        stream = [seed & (2**64 - 1)]

        def decide(d):
            view = local_view(d, exclude=[getattr(r, "code", r) for r in d.rejected])
            action, stream[0] = bot.choose(view, stream[0])
            if notes:
                from .types import Answer
                return Answer(action.code, note=f"{bot.name} chose {action} of {len(d.legal)} legal")
            return action.code
        return decide
    return make
