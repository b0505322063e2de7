"""Finds the generated gRPC stubs (package metropolis.v1) and the protocol reference.

The stubs are not committed: botkits/python/generate.sh writes them, with a copy of
docs/protocol.json, into botkits/python/gen (or the folder it is given). They are looked
for in, in order: the folder given to use_stubs(), $METROPOLIS_PY_STUBS, and
botkits/python/gen next to this package.
"""

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_STUBS = os.path.join(os.path.dirname(HERE), "gen")
REPO_PROTOCOL_JSON = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "docs", "protocol.json")

_folder = None
_modules = None
_protocol = None


class StubsMissing(ImportError):
    """The generated stubs or protocol.json cannot be found: the message says how to make them."""


def use_stubs(folder):
    """Takes the stubs from `folder` (what generate.sh was given). Call it before any other
    function of the package touches the protocol."""
    global _folder, _modules, _protocol
    _folder, _modules, _protocol = os.path.abspath(folder), None, None


def stubs_folder():
    return _folder or os.environ.get("METROPOLIS_PY_STUBS") or DEFAULT_STUBS


class _Modules:
    def __init__(self, **modules):
        self.__dict__.update(modules)


def modules():
    """The generated modules: game_pb2, gamehost_pb2, gamehost_pb2_grpc, matchmaker_pb2,
    matchmaker_pb2_grpc, tournaments_pb2, tournaments_pb2_grpc."""
    global _modules
    if _modules is not None:
        return _modules
    folder = stubs_folder()
    if not os.path.isfile(os.path.join(folder, "metropolis", "v1", "gamehost_pb2.py")):
        raise StubsMissing(f"no generated stubs in {folder}: run botkits/python/generate.sh {folder} "
                           "(or point METROPOLIS_PY_STUBS at the folder it wrote)")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    # The local engine's package is also called `metropolis` (python/metropolis): when it
    # is importable it is the one `import metropolis` finds, a regular package that hides
    # the stubs' namespace folder, so the stubs' folder is added to its search path.
    import metropolis
    stub_dir = os.path.join(folder, "metropolis")
    if hasattr(metropolis, "__path__") and stub_dir not in list(metropolis.__path__):
        metropolis.__path__.append(stub_dir)
    names = ["game_pb2", "gamehost_pb2", "gamehost_pb2_grpc", "matchmaker_pb2", "matchmaker_pb2_grpc",
             "tournaments_pb2", "tournaments_pb2_grpc"]
    try:
        loaded = {name: importlib.import_module("metropolis.v1." + name) for name in names}
    except ImportError as e:
        raise StubsMissing(f"cannot import the stubs from {folder} ({e}): generate them again with "
                           f"botkits/python/generate.sh {folder}") from e
    _modules = _Modules(**loaded)
    return _modules


def protocol():
    """docs/protocol.json as a dict: the stubs folder's copy, else the repository's."""
    global _protocol
    if _protocol is None:
        for path in (os.path.join(stubs_folder(), "protocol.json"), REPO_PROTOCOL_JSON):
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    _protocol = json.load(f)
                break
        else:
            raise StubsMissing(f"no protocol.json in {stubs_folder()}: run botkits/python/generate.sh")
    return _protocol
