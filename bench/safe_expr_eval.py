"""p_g evaluation: the old ``eval`` of a compiled source against the safe compiler's guarded code object, side by
side in one run (issue 57). Prints each expression's time per evaluation and the ratio new / old."""

from __future__ import annotations

import sys
import time
import types

from playtester.analysis.safe_expr import compile_game_expr, eval_game_expr, namespace


class Player:
    def __init__(self) -> None:
        self.y, self.jump_enabled, self.state = 100, True, "play"

    def on_ground(self) -> bool:
        return self.y >= 100


EXPRS = ["((L['player'].jump_enabled) and (L['player'].y >= 100))",
         "((L['player'].jump_enabled) and L['player'].on_ground())",
         "((M[0]['STATE'] == 'play') and (not ((L['k']) in H.keys)) and (L['n'] % 2 == 1))"]


def main(n: int = 200_000) -> None:
    roots = {"L": {"player": Player(), "k": 97, "n": 3}, "M": [{"STATE": "play"}],
             "H": types.SimpleNamespace(keys=frozenset({32})), "S": None}
    old_ns = {**roots, "getattr": getattr, "bool": bool}
    new_ns = namespace(**roots)
    for text in EXPRS:
        old, new = compile(text, "<p_g>", "eval"), compile_game_expr(text)
        assert eval(old, old_ns) == eval_game_expr(new, new_ns)  # noqa: S307 - bench of the old path
        t0 = time.perf_counter()
        for _ in range(n):
            eval(old, old_ns)  # noqa: S307
        t1 = time.perf_counter()
        for _ in range(n):
            eval_game_expr(new, new_ns)
        t2 = time.perf_counter()
        print(f"{(t1 - t0) / n * 1e9:7.0f} ns old  {(t2 - t1) / n * 1e9:7.0f} ns new  ratio {(t2 - t1) / (t1 - t0):.2f}  {text}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
