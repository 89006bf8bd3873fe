"""Action-space analysis of pygame games (the action-space paper, 000_*.txt, done for Python).

`analyze(spec)` starts the game in a worker, records its call graph during a short random run, then
asks the game's own process (at a frame boundary, with the main loop on the stack) to find the input
handling, slice it, execute it symbolically with z3 and turn the paths into actions
(`live.analyze_here`). The result becomes an `AnalyzedSpace` (``--actions analyzed``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from playtester.drive.spec import GameSpec
from playtester.errors import PlaytesterError


class AnalysisError(PlaytesterError):
    """The analysis could not produce an action space for this game (the message says why and which
    setting to change): exit code 2, as for any input playtester cannot use as asked."""

    exit_code = 2


@dataclass
class Analysis:
    """What `analyze` found, with its timings."""

    game: str
    result: dict[str, Any]
    seconds: float
    run_seconds: float
    warnings: list[str] = field(default_factory=list)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return self.result["actions"]

    def space(self) -> Any:
        from playtester.analysis.space import make_analyzed_space

        return make_analyzed_space(self.result, source=f"analyzed:{self.game}")


def _random_inputs(rng: random.Random, spec: GameSpec, screen: tuple[int, int]) -> Any:
    from playtester.actions.blind import COMMON_KEYS
    from playtester.drive.inputs import InputFrame, key_code

    black = {key_code(k) for k in spec.config.blacklist} if spec.config.blacklist else set()
    keys = [key_code(k) for k in COMMON_KEYS]
    keys = [k for k in keys if k not in black]
    held = frozenset(rng.sample(keys, rng.randint(0, 2)))
    w, h = screen if screen != (0, 0) else (640, 480)
    mouse = (rng.randrange(w), rng.randrange(h))
    buttons = frozenset(b for b in (1, 3) if rng.random() < 0.2)
    axes = tuple((j, a, rng.choice((-1.0, 0.0, 1.0))) for j in range(spec.config.joysticks) for a in range(4))
    jb = frozenset((j, b) for j in range(spec.config.joysticks) for b in range(4) if rng.random() < 0.2)
    return InputFrame(keys=held, mouse_pos=mouse, mouse_buttons=buttons, joy_axes=axes, joy_buttons=jb)


def analyze(spec: GameSpec, seed: int = 0, record_steps: int = 30, timeout: float | None = None,
            options_debug: bool = False, profile: str | None = None, max_forks: int | None = None) -> Analysis:
    """Analyse the game's input handling; raises `AnalysisError` with the reason when it cannot.

    The analysis runs in the game's process under the game's memory limit and ``analysis_seconds`` of
    CPU time (checked between statements); ``timeout`` (wall-clock, by default the budget plus a grace)
    is the parent's last word: past it the worker is killed."""
    budget = spec.config.analysis_seconds
    if max_forks is None:
        max_forks = spec.config.analysis_max_forks
    if timeout is None:
        timeout = budget * 1.5 + 10.0
    if spec.kind == "gym":
        raise AnalysisError(f"{spec.text} is a Gymnasium environment: it has its own discrete actions")
    from playtester.drive.worker import Worker
    from playtester.errors import MemoryLimitError, WorkerError

    t0 = time.perf_counter()
    rng = random.Random(seed)
    why = "it ended at once"
    with Worker(spec, capture=None) as w:
        for attempt, steps in enumerate((record_steps, 3, 0)):
            obs = w.reset(seed=seed + attempt)
            if obs.done:
                why = obs.exit.message if obs.exit else f"done: {obs.info.get('done_reason')}"
                continue
            try:
                w.call("playtester.analysis.live:start_recording")
                for _ in range(steps):
                    obs = w.step(_random_inputs(rng, spec, obs.info.get("screen_size", (0, 0))))
                    if obs.done:
                        break
                if obs.done:
                    continue
                # release everything so the analysis sees the game between two inputs
                from playtester.drive.inputs import InputFrame

                obs = w.step(InputFrame(mouse_pos=None))
                if obs.done:
                    continue
                t1 = time.perf_counter()
                result = w.call("playtester.analysis.live:analyze_here",
                                {"profile": profile, "max_forks": max_forks, "seconds": budget}, timeout=timeout)
                t2 = time.perf_counter()
            except MemoryLimitError:
                raise AnalysisError(f"analysis of {spec.text} ran past its memory limit ({w.memory_limit_mb} MiB "
                                    "of data in the game process) and gave up; raise memory_limit_mb in the "
                                    "game's playtester.toml or --memory-limit to let it finish") from None
            except WorkerError as e:
                if w.host_pid is None:  # the call timed out and the worker was killed
                    raise AnalysisError(f"analysis of {spec.text} did not finish within {timeout:g} s and was "
                                        f"killed (its budget is {budget:g} s of CPU time): {e}") from None
                raise AnalysisError(f"analysis of {spec.text} failed in the game process: {e}") from None
            if result.get("gave_up"):
                raise AnalysisError(f"analysis of {spec.text} gave up: {result['gave_up']} ({budget:g} s; raise "
                                    "analysis_seconds in the game's playtester.toml to give it more)")
            if not result["actions"]:
                raise AnalysisError(f"analysis of {spec.text} found no input handling in its main loop "
                                    f"({result['loop']['file']}:{result['loop']['line']})")
            warnings = [f"{u['file']}:{u['line']}: {u['what']}" for u in result["unsupported"]]
            if result.get("partial"):
                warnings.insert(0, f"partial action space: {result['partial']} ({budget:g} s of CPU time; raise "
                                "analysis_seconds in the game's playtester.toml for the rest)")
            for note in result["stats"].get("notes", []):
                warnings.append(f"{note}; the space may miss actions")
            return Analysis(spec.text, result, t2 - t1, t1 - t0, warnings)
    raise AnalysisError(f"analysis of {spec.text} failed: the game ended before its main loop could be analysed "
                        f"({why})")
