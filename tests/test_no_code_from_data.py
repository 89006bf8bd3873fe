"""Data files are data (issue 57): an analysed space, an agent state or a demonstration cache entry read from disk
runs no code. Each crafted file here would run ``touch MARKER``; loading it is refused and the marker never appears."""

from __future__ import annotations

import json
import os
import pickle
import re
import types
import zlib
from pathlib import Path

import pytest

from playtester.actions.space import ActionContext
from playtester.errors import ConfigError, UsageError

SRC = Path(__file__).resolve().parents[1] / "src" / "playtester"


class _Boom:
    """Unpickling this runs ``touch path`` (what a crafted pickle does)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return os.system, (f"touch {self.path}",)


def _export(path: Path, p_g: str, p_g_free: str | None = None, game_var: str | None = None) -> None:
    """An ``analyze --json`` export of one action whose p_g (or p_g_free, or a game variable) is ``p_g``."""
    act = {"name": "press A", "p_g": p_g, "p_g_text": "x", "p_i": "", "p_i_text": "x", "p_i_game_vars": []}
    if p_g_free is not None:
        act["p_g_free"] = p_g_free
    analysis = {"schema": 1, "game": "crafted", "modules": ["game.py"], "unanalysed": [], "actions": [act],
                "loop": {"file": "game.py", "function": "main", "firstlineno": 1, "line": 2, "module": False},
                "game_vars": {} if game_var is None else {"g:0": {"src": game_var, "kind": "int"}}}
    path.write_text(json.dumps({"version": 1, "actions": [{"name": "press A"}], "analysis": analysis}))


def _ctx(module_globals: dict | None = None) -> ActionContext:
    game = types.SimpleNamespace(frame=lambda *a: types.SimpleNamespace(f_locals={}),
                                 module_globals=lambda f: module_globals or {})
    return ActionContext(game=game)


@pytest.mark.parametrize("where", ["p_g", "p_g_free", "game_var"])
@pytest.mark.parametrize("payload", [
    "__import__('os').system('touch {m}')",
    "().__class__.__base__.__subclasses__()[0]('touch {m}')",
    "[c for c in ().__class__.__mro__[1].__subclasses__()] and __builtins__['__import__']('os').system('touch {m}')",
    "getattr(L, '__class__') or (lambda: __import__('os').system('touch {m}'))()",
])
def test_a_crafted_analysed_space_is_refused_on_load_and_runs_nothing(tmp_path, where, payload):
    from playtester.analysis.export import load_analyzed

    marker = tmp_path / "pwned"
    code = payload.format(m=marker)
    path = tmp_path / "space.json"
    _export(path, **({"p_g": code} if where == "p_g" else
                     {"p_g": "(S['x'] > 1)", "p_g_free": code} if where == "p_g_free" else
                     {"p_g": "True", "game_var": code}))
    with pytest.raises(ConfigError, match=r"space\.json.*refused the expression"):
        space = load_analyzed(path)
        space.mask(_ctx())  # before: the p_g ran here, in the episode process
        if where == "game_var":
            space._runtime()._game_values({"p_i_game_vars": ["g:0"]}, space._runtime().roots(_ctx()))
    assert not marker.exists()


def test_a_crafted_space_in_a_trace_or_the_store_is_refused_too(tmp_path):
    from playtester.env import space_from_dict

    marker = tmp_path / "pwned"
    path = tmp_path / "space.json"
    _export(path, f"__import__('os').system('touch {marker}')")
    analysis = json.loads(path.read_text())["analysis"]
    from playtester.actions.space import SPACE_SCHEMA
    from playtester.drive.inputs import InputFrame, frame_to_dict

    data = {"schema": SPACE_SCHEMA, "kind": "analyzed", "source": "trace.json",
            "actions": [{"name": "press A", "inputs": frame_to_dict(InputFrame()), "mode": "hold", "hold_frames": None,
                         "when": None, "cell": None, "description": ""}], "analysis": analysis}
    with pytest.raises(ConfigError, match="refused"):
        space = space_from_dict(data)
        space.mask(_ctx())
    assert not marker.exists()


def test_an_expression_of_the_analysis_form_cannot_call_what_the_game_imports(tmp_path):
    """Valid in form (a module global's method), but ``os.system`` is not the game's code nor a method the
    analysis emits: the call is refused when evaluated (the action kept, as for any failing predicate)."""
    from playtester.analysis.export import load_analyzed

    marker = tmp_path / "pwned"
    path = tmp_path / "space.json"
    _export(path, f"(M[0]['os'].system('touch {marker}') == 0)")
    space = load_analyzed(path)
    assert space.mask(_ctx({"os": os})).tolist() == [1]
    assert space._runtime().errors == 1
    assert not marker.exists()
    _export(path, f"(M[0]['sh'].rmtree('{tmp_path}') == 0)")
    import shutil

    load_analyzed(path).mask(_ctx({"sh": shutil}))
    assert tmp_path.exists()


class _Game:
    def __init__(self) -> None:
        self.y = 100
        self.table = {"a": 3}

    def on_ground(self) -> bool:
        return self.y >= 100


def test_the_forms_the_analysis_emits_are_accepted_and_evaluate_as_before():
    from playtester.analysis.safe_expr import compile_game_expr, eval_game_expr, namespace

    g = _Game()
    L = {"player": g, "n": 3, "k": 97}
    M = [{"STATE": "play", "t": (1, 2)}]
    H = types.SimpleNamespace(keys=frozenset({97}))
    cases = {
        "((L['player'].y >= 100) and L['player'].on_ground())": True,
        "(getattr(L['player'].on_ground, '__qualname__', None) == '_Game.on_ground')": True,
        "(L['player'].on_ground.__self__ is L['player'])": True,
        "(M[0]['STATE'] == 'play')": True,
        "((L['k']) in H.keys)": True,
        "bool(L['player'].table)": True,
        "(len(M[0]['t']) == 2)": True,
        "('a' in L['player'].table.keys())": True,
        "((L['n'] % 2) == 1) if (L['n'] > 0) else False": True,
        "(not ((-L['n']) > (2 ** 2)))": True,
        "((L['n'] // 2) + (L['n'] & 1) - (M[0]['t'][-1]))": 0,
        "(L['player'].table[('a')] * 1.5)": 4.5,
    }
    for text, want in cases.items():
        got = eval_game_expr(compile_game_expr(text), namespace(L=L, M=M, H=H, S=None))
        assert got == want, text


@pytest.mark.parametrize("text", [
    "__import__('os')", "L.__class__", "getattr(L, '__globals__')", "M[0]['__builtins__']", "M[0][L['k']]",
    "open('/etc/passwd')", "eval('1')", "exec", "(lambda: 1)()", "[x for x in L]", "L['a'](x=1)", "L['a'](*L)",
    "f'{L}'", "(x := 1)", "L['a'].__init__.__globals__", "{}", "[1]", "b'x'",
])
def test_what_the_analysis_does_not_emit_is_refused(text):
    from playtester.analysis.safe_expr import UnsafeExpression, compile_game_expr

    with pytest.raises(UnsafeExpression, match="some.json"):
        compile_game_expr(text, "some.json")


def test_a_computed_getattr_name_cannot_reach_dunders():
    from playtester.analysis.safe_expr import UnsafeExpression, compile_game_expr, eval_game_expr, namespace

    code = compile_game_expr("getattr(L['o'], L['name'])")
    with pytest.raises(UnsafeExpression):
        eval_game_expr(code, namespace(L={"o": 1, "name": "__class__"}, M=[], H=None, S=None))


def test_a_crafted_pickle_as_agent_state_is_refused_and_runs_nothing(tmp_path):
    from playtester.agents import make_agent

    marker = tmp_path / "pwned"
    agent = make_agent("random", 4, 0)
    for blob in (pickle.dumps({"agent": agent.name, "state": _Boom(marker), "rng": None}),
                 _torch_saved({"agent": agent.name, "state": _Boom(marker), "rng": None})):
        with pytest.raises(UsageError, match=r"(?s)agent state: refused: .*runs code when loaded.*start the campaign again"):
            agent.load_state(blob)
        assert not marker.exists()


def _torch_saved(obj):
    import io

    import torch

    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def test_agent_state_round_trips_without_pickle():
    from playtester.agents import make_agent

    agent = make_agent("random", 4, 3)
    agent.rng.random()
    blob = agent.state_bytes()
    assert blob.startswith(b"PK") and b"\x80\x04" not in blob[:2]
    again = make_agent("random", 4, 0)
    again.load_state(blob)
    assert again.rng.random() == agent.rng.random()


def test_a_crafted_pickle_in_the_demonstration_cache_is_refused_and_runs_nothing(tmp_path, caplog):
    from playtester.campaign.demos import _read
    from playtester.findings import Trace

    marker = tmp_path / "pwned"
    entry = tmp_path / "x.demo"
    entry.write_bytes(zlib.compress(pickle.dumps({"format": 1, "obs": [_Boom(marker)], "infos": [{}],
                                                  "actions": [0], "rewards": [0.0]})))
    trace = Trace.__new__(Trace)
    trace.actions = [0]
    with caplog.at_level("WARNING"):
        assert _read(entry, trace) is None
    assert not marker.exists()
    assert "runs code when loaded" in caplog.text and "played again" in caplog.text


_FORBIDDEN = re.compile(r"\beval\(|\bexec\(|pickle\.loads?\(|weights_only\s*=\s*False|yaml\.load\(|"
                        r"yaml\.unsafe_load|marshal\.loads?\(|shelve\.open")
# vetted exceptions: (file, a piece of the line) with why it is not data from disk or a socket
_VETTED = {
    ("analysis/safe_expr.py", "return eval(code, ns)"): "a code object compiled from a validated tree",
    ("analysis/fastcheck.py", "exec(compile(source"): "source generated from a closed SMT-LIB grammar: names are "
                                                      "repr()'d, operators from fixed tables",
    ("drive/worker.py", "obs = pickle.loads(obs)"): "an observation from our own episode process (socketpair)",
    ("drive/observation.py", "self._obs = pickle.loads(self.data)"): "same: our own episode process's bytes",
    ("drive/ray_worker.py", "return pickle.loads(value)"): "our own Ray actor's answer (Ray pickles anyway)",
}


def test_no_code_from_data_in_src():
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith(("\"", "'")) else ""
            if "eval(" in code and re.search(r"\.eval\(|literal_eval\(", code) and not re.search(r"(?<![.\w])eval\(", code):
                continue  # model.eval(), ast.literal_eval(), z3's model.eval()
            if _FORBIDDEN.search(code) and not any(rel == f and piece in line for f, piece in _VETTED):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "code run from data (vet it in this test with a reason, or use a data format):\n" + \
        "\n".join(found)
