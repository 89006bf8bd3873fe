"""What watches a campaign's steps (`loop.Observer`s), each doing one job:

- `OracleWatch`: each step's findings to a sink (the store): found by the worker where the game runs
  (`WorkerOracles`, the default of ``explore``) or by the episode's oracle suite in this process.
- `StateCoverage`: the abstract state key of each step (computed by the worker, `StateKey`, or here), and which
  states are new (for the explorer too).
- `PositionWatch`: where the player went, per episode (the position map).
- `BirdsEyeWatch`: each episode's position trace and which objects of interest it tested, with the texture
  oracle's verdicts on them, one JSON line an episode in the run folder (the report's bird's-eye maps).
- `CodeWatch`: the game's executed lines, merged per episode and for the campaign.
- `ExplorerHooks`: the agent's ``observe`` / ``episode_end`` hooks (Transition per step).
- `EpisodeWriter`: each ended episode, with the campaign's totals, to the store.
- `AgentSaver`: a learning agent's state to the store every ``every_s`` seconds and at the end.

The order in the loop's list matters where one reads what another set: state coverage before the explorer
(the transition carries the key), code coverage before the episode writer (its totals).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playtester.agents.common import Transition
from playtester.campaign.loop import CampaignLoop, Observer, Slot, Step
from playtester.coverage.code import CodeCoverage
from playtester.coverage.maps import PositionMap
from playtester.coverage.state import encode_key
from playtester.report.maps import BIRDSEYE_FILE  # noqa: F401  (where it was; the report reads the file)
from playtester.vision.evaluate import box_iou


class OracleWatch(Observer):
    """Every played step's findings go to ``sink(slot, finding)``: those the worker found where the game runs
    (`WorkerOracles`: the step's ``info["findings"]``, taken out here), and, with the oracles in this process
    (the slot's ``suite``, from the loop's ``make_suite``), those of the step through that suite. Replayed
    steps are watched too (the oracles keep their windows) but what they find was reported before: dropped.
    The step that ends an episode whose worker was lost (``worker_lost``) is not checked (a worker checking
    where the game runs never sees it: it is made here)."""

    def __init__(self, sink: Callable[[Slot, Any], None]) -> None:
        self.sink = sink

    def on_step(self, step: Step) -> None:
        obs = step.game_obs
        if obs is None:
            return
        info = getattr(obs, "info", None)
        found = info.pop("findings", None) if info else None
        if getattr(getattr(obs, "exit", None), "kind", None) == "worker_lost":
            return  # the worker's actor died: the step never ran in the game (not a frozen screen, not a crash)
        for f in found or ():
            self.sink(step.slot, f)
        if step.slot.suite is not None:
            for f in step.slot.suite.check(obs, step.index):
                self.sink(step.slot, f)

    def on_replay_step(self, slot: Slot, index: int) -> None:
        obs = slot.last_obs
        if obs is None:
            return
        info = getattr(obs, "info", None)
        if info:
            info.pop("findings", None)  # found on the way back: reported when first played
        if slot.suite is not None:
            slot.suite.check(obs, index)


class StateKey:
    """A campaign's state abstraction computed where the game runs (`GameEnv.watch_states`): an observation's
    key, encoded (`encode_key`), or None. Picklable (the abstraction's settings), for a Ray actor."""

    def __init__(self, abstraction: Any) -> None:
        self.abstraction = abstraction

    def __call__(self, obs: Any) -> str | None:
        key = self.abstraction.key(obs)
        return None if key is None else encode_key(key)


class WorkerOracles:
    """The oracles of a campaign checking where the game runs (issue 21): given to each worker (`GameEnv`'s
    ``oracles``), it makes an episode's oracle suite there, at every reset (`Worker.check_step`). Small and
    picklable (the game's ``[oracles]`` table as plain values), so a `RayWorker` sends it to its actor; the
    texture oracle's judge is loaded where the suite is made (the entry point ``texture`` of ``playtester.judges``)."""

    def __init__(self, settings: Any) -> None:
        self.settings: dict[str, Any] = settings if isinstance(settings, dict) else settings.model_dump()
        self._model: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"settings": self.settings, "_model": None}

    def __call__(self) -> Any:
        from playtester.oracles import make_oracles, settings_model

        if self._model is None:
            self._model = settings_model().model_validate(self.settings)
        suite = make_oracles(self._model)
        suite.reset()
        return suite


class StateCoverage(Observer):
    """Distinct abstract states: ``key(step)`` gives a step's state (None: it has none), encoded here, unless
    the worker computed it where the game runs (`StateKey`: the step's ``info["state_key"]``, encoded already).
    ``seen`` counts visits per state over the campaign (a resumed campaign passes its stored counts);
    ``episode[slot]`` counts this episode's, written with the episode."""

    def __init__(self, key: Callable[[Step], Any], seen: dict[str, int] | None = None) -> None:
        self.key = key
        self.seen: dict[str, int] = dict(seen or {})
        self.episode: dict[int, Counter[str]] = {}

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = Counter()

    def on_step(self, step: Step) -> None:
        info = getattr(step.game_obs, "info", None)
        if info and "state_key" in info:
            k = info["state_key"]
            if k is None:
                return
        else:
            key = self.key(step)
            if key is None:
                return
            k = encode_key(key)
        step.key = k
        self.episode.setdefault(step.slot.index, Counter())[k] += 1
        if k not in self.seen:
            self.seen[k] = 0
            step.fresh = True
        self.seen[k] += 1


class PositionWatch(Observer):
    """The player's positions in each episode (`PositionMap` of the game's config)."""

    def __init__(self, cell: float, source: str) -> None:
        self.cell, self.source = cell, source
        self.episode: dict[int, PositionMap] = {}

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = PositionMap(self.cell, self.source)

    def on_step(self, step: Step) -> None:
        if step.game_obs is not None:
            self.episode.setdefault(step.slot.index, PositionMap(self.cell, self.source)).add(step.game_obs)


LAYOUT_HOOK = "playtester.vision.dataset:call_hook"  # runs a game's probe hook in its process (`Worker.call`)


class BirdsEyeWatch(Observer):
    """What the bird's-eye maps of the report need (`report.maps`), for games that report the player's position:

    - each episode's **position trace**, thinned: a point when the player moved ``min_move`` from the last one
      kept, at most ``max_points`` an episode (when full, every other point is dropped and the spacing doubles);
    - for games whose probe reports objects of interest (entities with ``bug_faces`` and ``seen_faces``, as the
      park's), the faces each episode **saw** (the probe's ``seen_faces``) and the **texture oracle's verdicts**
      on them: its judgements of a step (``last_judged``) matched by IoU >= ``min_iou`` to the ``screen_box`` of
      the objects seen on that frame (within ``seen_distance``, box at least ``min_height`` pixels tall: the
      park's rule). That is ground truth, read for the report's evaluation only: nothing here reaches the
      oracles or the agent.

    One JSON line an episode is appended to ``path`` (memory stays bounded by the episodes in flight; ``fresh``
    false for an episode the explorer started itself by restoring a snapshot, as Go-Explore's returns and PPGTA's
    ``after_test=return``: the same game episode going on from an earlier point); its
    first line holds the map (rows of tile characters from the game's ``layout`` hook, when it has one) and the
    objects (id, kind, position, ``bug_faces``: those the game's ``objects`` hook lists, when it has one, else
    those its probe reports at the first step). A resumed campaign appends to the same file. A game with
    neither a ``layout`` map nor objects of interest gets no file (its position heat map says where it went).
    """

    def __init__(self, path: str | Path, source: str = "auto", min_move: float = 0.25, max_points: int = 500,
                 seen_distance: float = 6.0, min_height: float = 32.0, min_iou: float = 0.5) -> None:
        self.path = Path(path)
        self.positions = PositionMap(1.0, source)
        self.min_move, self.max_points = min_move, max_points
        self.seen_distance, self.min_height, self.min_iou = seen_distance, min_height, min_iou
        self.header = self.path.is_file() and self.path.stat().st_size > 0
        self.off = False  # a game with neither a map nor objects of interest: nothing to draw, nothing written
        self.episode: dict[int, dict[str, Any]] = {}

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = {"trace": [], "gap": self.min_move, "faces": {}, "votes": {}, "judged": False,
                                    "fresh": fresh}

    def on_step(self, step: Step) -> None:
        self._see(step.slot, step.game_obs, step.index)

    def on_replay_step(self, slot: Slot, index: int) -> None:
        self._see(slot, slot.last_obs, index)

    def _see(self, slot: Slot, obs: Any, index: int) -> None:
        if obs is None or self.off:
            return
        ep = self.episode.get(slot.index)
        if ep is None:
            ep = self.episode[slot.index] = {"trace": [], "gap": self.min_move, "faces": {}, "votes": {},
                                             "judged": False}
        pos = self.positions.position(obs)
        if pos is not None and math.isfinite(pos[0]) and math.isfinite(pos[1]):
            self.thin_trace(ep, (round(float(pos[0]), 2), round(float(pos[1]), 2)))
        oois = {k: e for k, e in obs.entities.items() if "bug_faces" in e.attrs and "seen_faces" in e.attrs}
        if not self.header and (pos is not None or oois):
            self._write_header(slot, oois)
            if self.off:
                return
        for k, e in oois.items():
            if e.attrs["seen_faces"]:
                ep["faces"][k] = sorted(int(f) for f in e.attrs["seen_faces"])
        judged = self._judgements(slot, index, obs)
        if judged is None or not oois:
            return
        ep["judged"] = True
        self._vote(ep, oois, judged)

    def thin_trace(self, ep: dict[str, Any], p: tuple[float, float]) -> None:
        """Add ``p`` to ``ep["trace"]`` by the record's rule: only once the player moved ``ep["gap"]`` (from
        ``min_move``) since the last point; past ``max_points`` every other point goes and the gap doubles. Public
        so that a benchmark scores a scripted walker's trace as a campaign's record would keep it."""
        trace = ep["trace"]
        if trace and math.dist(trace[-1], p) < ep["gap"]:
            return
        trace.append(p)
        if len(trace) > self.max_points:
            del trace[1::2]
            ep["gap"] *= 2

    @staticmethod
    def _judgements(slot: Slot, index: int, obs: Any = None) -> list[Any] | None:
        """The texture oracle's judgements of this step's frame (None: it did not judge this one): sent with
        the step by a worker that checks where the game runs (``info["judged"]``), else its ``last_judged``."""
        info = getattr(obs, "info", None)
        if info and "judged" in info:
            return info["judged"]
        for oracle in getattr(slot.suite, "oracles", ()):
            if getattr(oracle, "kind", None) == "texture" and getattr(oracle, "judge", None) is not None:
                last = getattr(oracle, "last_judged", None)
                return last[1] if last is not None and last[0] == index else None
        return None

    def _vote(self, ep: dict[str, Any], oois: dict[str, Any], judged: list[Any]) -> None:
        """Each judgement to the seen object whose box it overlaps most (one judgement an object)."""
        seen = []
        for k, e in oois.items():
            a = e.attrs
            box, face, dist = a.get("screen_box"), a.get("face"), a.get("distance")
            if box is None or face is None or dist is None:
                continue
            if float(dist) <= self.seen_distance and float(box[3]) - float(box[1]) >= self.min_height:
                seen.append((k, [float(v) for v in box], int(face)))
        pairs = sorted(((box_iou(b, j.box), n, i) for n, (_, b, _) in enumerate(seen) for i, j in enumerate(judged)),
                       reverse=True)
        used_o, used_j = set(), set()
        for overlap, n, i in pairs:
            if overlap < self.min_iou:
                break
            if n in used_o or i in used_j:
                continue
            used_o.add(n)
            used_j.add(i)
            k, _, face = seen[n]
            votes = ep["votes"].setdefault(k, {}).setdefault(str(face), {})
            votes[judged[i].verdict] = votes.get(judged[i].verdict, 0) + 1

    def _write_header(self, slot: Slot, oois: dict[str, Any]) -> None:
        rows = None  # the game's map, when it has a ``layout`` hook giving ``{"rows": [...]}``
        try:
            status, value = slot.env.worker.call(LAYOUT_HOOK, "layout")
            rows = value.get("rows") if status == "ok" and isinstance(value, dict) else None
        except Exception:  # noqa: BLE001 - no worker, no live episode, an engine without calls: no map
            rows = None
        if rows is None and not oois:
            self.off = True
            return
        objects = [{"id": k, "kind": e.kind, "x": e.pos[0], "y": e.pos[1],
                    "bug_faces": [str(b) for b in e.attrs["bug_faces"]]} for k, e in oois.items() if e.pos is not None]
        placed = self._placed(slot)  # a game whose probe reports only the objects in view lists them all
        self._append({"map": rows, "objects": placed if placed is not None else objects})
        self.header = True

    @staticmethod
    def _placed(slot: Slot) -> list[dict[str, Any]] | None:
        """Every object of interest on the map, from the game's ``objects`` hook (``{"id", "kind", "x", "y",
        "bug_faces"}`` each: ViZDoom's, whose labels give only the objects in view); None: no such hook."""
        try:
            status, value = slot.env.worker.call(LAYOUT_HOOK, "objects")
        except Exception:  # noqa: BLE001 - no worker, no live episode, an engine without calls
            return None
        if status != "ok" or not isinstance(value, list):
            return None
        keys = ("id", "kind", "x", "y", "bug_faces")
        return [{k: o[k] for k in keys} for o in value if isinstance(o, dict) and all(k in o for k in keys)]

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        ep = self.episode.pop(slot.index, None)
        if ep is None or not self.header:
            return
        self._append({"seed": slot.seed, "worker": slot.index, "outcome": outcome, "trace": ep["trace"],
                      "faces": ep["faces"], "votes": ep["votes"], "judged": ep["judged"],
                      "fresh": ep.get("fresh", True)})

    def _append(self, record: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")


class CodeWatch(Observer):
    """Executed lines of the game's source, as the workers report them: per episode (stored with it) and
    merged into ``code`` (the campaign's `CodeCoverage`) when the episode ends. Lines an episode process ran
    after its last report arrive with the next reset."""

    def __init__(self, code: CodeCoverage) -> None:
        self.code = code
        self.episode: dict[int, dict[str, set[int]]] = {}

    def on_reset(self, slot: Slot) -> None:
        worker = slot.env.worker
        late = worker.final_code_lines if worker is not None else None
        if late:
            self.code.add(late)

    def on_episode_start(self, slot: Slot, fresh: bool) -> None:
        self.episode[slot.index] = {}

    def _add(self, slot: Slot, obs: Any) -> None:
        if obs is None:
            return
        mine = self.episode.setdefault(slot.index, {})
        for f, lines in obs.info.get("code_lines", {}).items():
            mine.setdefault(f, set()).update(lines)

    def on_step(self, step: Step) -> None:
        self._add(step.slot, step.game_obs)

    def on_replay_step(self, slot: Slot, index: int) -> None:
        self._add(slot, slot.last_obs)

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        self.code.add(self.episode.get(slot.index, {}))


class ExplorerHooks(Observer):
    """The agent's view of each step (`Transition`) and of each episode's end."""

    def on_step(self, step: Step) -> None:
        if step.action is None:
            return
        agent = step.slot.agent
        step.stop = bool(agent.observe(step.slot.index, Transition(
            step.prev_obs, step.action, step.reward, step.obs, step.terminated, step.truncated, step.info,
            step.key, step.fresh, step.game_obs))) or step.stop

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        slot.agent.episode_end(slot.index, outcome)


class EpisodeWriter(Observer):
    """Each ended episode to the store with the campaign's totals so far (the coverage timeline)."""

    def __init__(self, store: Any, campaign_id: int, states: StateCoverage, positions: PositionWatch,
                 code: CodeWatch) -> None:
        self.store, self.cid = store, campaign_id
        self.states, self.positions, self.code = states, positions, code
        self.loop: CampaignLoop | None = None

    def on_start(self, loop: CampaignLoop) -> None:
        self.loop = loop

    def on_episode_end(self, slot: Slot, outcome: str, reason: str) -> None:
        loop = self.loop
        assert loop is not None
        t = loop.now_s()
        code = self.code.code
        self.store.record_episode(
            self.cid, worker=slot.index, seed=slot.seed, steps=len(slot.actions), outcome=outcome, reason=reason,
            ended_s=t, actions=slot.actions, new_states=dict(self.states.episode.get(slot.index, {})),
            positions=self.positions.episode[slot.index].counts if slot.index in self.positions.episode else {},
            code_lines=self.code.episode.get(slot.index, {}),
            totals={"t_s": t, "steps": loop.steps, "episodes": loop.episodes, "states": len(self.states.seen),
                    "code_covered": code.covered(), "code_total": code.total(),
                    "bugs": self.store.bug_count(self.cid), "steps_per_s": loop.steps / max(t - loop.elapsed0, 1e-9),
                    "next_seed": loop.next_seed})


class AgentSaver(Observer):
    """A learning agent's state (``state_bytes``) to the campaign row, every ``every_s`` and at the end,
    so ``explore --resume`` continues what it learnt."""

    def __init__(self, save: Callable[[bytes], None], agent: Any, every_s: float) -> None:
        self.save, self.agent, self.every_s = save, agent, every_s
        self.saved_at = time.perf_counter()

    def on_round(self, loop: CampaignLoop) -> None:
        if time.perf_counter() - self.saved_at > self.every_s:
            self.on_end(loop)

    def on_end(self, loop: CampaignLoop) -> None:
        self.save(self.agent.state_bytes())
        self.saved_at = time.perf_counter()


class Progress(Observer):
    """``callback(dict)`` after every round: steps, seconds, episodes, states, bugs (every 100 steps)."""

    def __init__(self, callback: Callable[[dict[str, Any]], None], states: StateCoverage,
                 bugs: Callable[[], int]) -> None:
        self.callback, self.states, self.bugs = callback, states, bugs

    def on_round(self, loop: CampaignLoop) -> None:
        self.callback({"steps": loop.steps, "seconds": loop.now_s(), "episodes": loop.episodes,
                       "states": len(self.states.seen), "bugs": self.bugs() if loop.steps % 100 == 0 else None,
                       "budget": loop.budget})
