"""Plans from play sessions: periodic positions plus every gameplay action, with the actor it targeted.

Two sources, one recorder:

- `record_trace`: any stored trace (``trace.json``, or ``DIR/bugs/N``) is played again in a worker; its
  actions are mapped to the plan config's gameplay actions by name, or by the keys they press.
- `record_play`: a person plays the game in a window (in this process, with a recording probe sink);
  key presses are mapped to gameplay actions through the plan config's controls.

An action gets the actor it targeted: an actor id named in the game's events of that step (the dungeon's
``interact`` event names its ``target``), else the nearest actor within 1.5 of the player. The result is
a rough skeleton (world positions make it sensitive to map edits, as the article says) to refine by
hand: replace ``at`` nodes with actors, add rules.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from playtester.errors import UsageError
from playtester.plans.schema import Node, Plan, PlanConfig, config_for

NEAR = 1.5


class Recorder:
    """Turns (player position, gameplay action, events, actors) per step into plan nodes."""

    def __init__(self, cfg: PlanConfig, every: int = 8) -> None:
        self.cfg = cfg
        self.every = every
        self.nodes: list[Node] = []
        self.last_at: tuple[int, int] | None = None
        self.steps = 0

    def _target(self, entities: dict[str, Any], events: list[tuple[str, dict[str, Any]]],
                pos: tuple[float, float]) -> str | None:
        for _, data in events:
            for v in data.values():
                if isinstance(v, str) and v in entities and v != self.cfg.player:
                    return v
        near = [(math.hypot(p[0] - pos[0], p[1] - pos[1]), i) for i, (_, p) in entities.items()
                if p is not None and i != self.cfg.player]
        near = [n for n in near if n[0] <= NEAR]
        return min(near)[1] if near else None

    def step(self, pos: tuple[float, float] | None, action: str | None, entities_before: dict[str, Any],
             events: list[tuple[str, dict[str, Any]]]) -> None:
        """One step: ``pos`` the player's position before it, ``action`` the gameplay action performed
        (None for moves), ``entities_before`` {id: (kind, pos)}, ``events`` of the step."""
        self.steps += 1
        if pos is None:
            return
        cell = (int(round(pos[0])), int(round(pos[1])))
        if action is not None:
            target = self._target(entities_before, events, pos)
            if target is not None:
                self.nodes.append(Node(actor=target, action=action, tolerance=NEAR))
            else:
                self.nodes.append(Node(at=(float(cell[0]), float(cell[1])), action=action, tolerance=0.5))
            self.last_at = cell
        elif self.steps % self.every == 0 and cell != self.last_at:
            self.nodes.append(Node(at=(float(cell[0]), float(cell[1])), tolerance=0.5))
            self.last_at = cell

    def finish(self, pos: tuple[float, float] | None) -> None:
        if pos is not None:
            cell = (int(round(pos[0])), int(round(pos[1])))
            if cell != self.last_at:
                self.nodes.append(Node(at=(float(cell[0]), float(cell[1])), tolerance=0.5))

    def plan(self, name: str, game: str, description: str = "") -> Plan:
        if not self.nodes:
            raise UsageError("the session recorded no node (the player never moved or acted)")
        return Plan(name=name, game=game, description=description, nodes=self.nodes)


def _load_trace(ref: Path) -> Any:
    from playtester.findings import Trace

    if ref.is_file():
        return Trace.from_json(ref.read_text(encoding="utf-8"))
    if ref.parent.name == "bugs" and ref.name.isdigit():
        from playtester.store import Store

        store = Store(ref.parent.parent, create=False)
        try:
            bug = store.bug(int(ref.name))
        finally:
            store.close()
        if bug.trace is None:
            raise UsageError(f"bug {ref.name} has no trace")
        return bug.trace
    raise UsageError(f"{ref}: not a trace file nor a DIR/bugs/N folder")


def _action_map(space: Any, cfg: PlanConfig) -> dict[int, str]:
    """Trace action index -> plan gameplay action (by name, else by the keys it presses)."""
    from playtester.drive.inputs import key_code

    out: dict[int, str] = {}
    keys = {a: frozenset(key_code(k) for k in cfg.controls[a].keys) for a in cfg.gameplay_actions}
    for i, act in enumerate(space.actions):
        if act.name in keys:
            out[i] = act.name
            continue
        for a, ks in keys.items():
            if ks and ks <= act.inputs.keys and act.mode in ("hold", "press"):
                out[i] = a
                break
    return out


def record_trace(spec: Any, ref: str | Path, every: int = 8, name: str = "recorded session",
                 cfg: PlanConfig | None = None) -> Plan:
    """A plan from a stored trace, played again in a worker."""
    from playtester.drive.worker import Worker
    from playtester.env import space_from_dict
    from playtester.replay import trace_spec

    trace = _load_trace(Path(ref))
    tspec = trace_spec(trace)
    cfg = cfg or config_for(spec)
    space = space_from_dict(trace.space)
    amap = _action_map(space, cfg)
    rec = Recorder(cfg, every)
    with Worker(tspec, space, capture=None) as w:
        obs = w.reset(seed=trace.seed)
        for a in trace.actions:
            if obs.done:
                break
            p = obs.entities.get(cfg.player)
            before = {i: (e.kind, e.pos) for i, e in obs.entities.items()}
            obs = w.act(a)
            rec.step(p.pos if p else None, amap.get(a), before, [(e.name, e.data) for e in obs.events])
        p = obs.entities.get(cfg.player)
        rec.finish(p.pos if p else None)
    return rec.plan(name, spec.text, f"recorded from {ref} ({len(trace.actions)} steps, seed {trace.seed})")


class _Sink:
    """A probe sink for a game played in this process: latest entities, events of the current frame."""

    def __init__(self) -> None:
        self.entities: dict[str, tuple[str, Any]] = {}
        self.events: list[tuple[str, dict[str, Any]]] = []

    def on_event(self, name: str, data: dict[str, Any]) -> None:
        self.events.append((str(name), dict(data)))

    def on_check(self, *a: Any) -> None:
        pass

    def on_observe(self, features: dict[str, Any]) -> None:
        pass

    def on_entity(self, id: Any, kind: str, pos: Any, attrs: dict[str, Any]) -> None:
        self.entities[str(id)] = (str(kind), None if pos is None else (float(pos[0]), float(pos[1])))


def record_play(spec: Any, every: int = 8, name: str = "recorded session", cfg: PlanConfig | None = None,
                script: dict[int, list[str]] | None = None, held: dict[int, list[str]] | None = None) -> Plan:
    """A plan from a person playing ``spec`` in a window (this process); ends when the game returns.

    Args:
        script: for tests: frame -> key names pressed (KEYDOWN) at that frame.
        held: for tests: frame -> key names held from that frame on (``key.get_pressed``).
    """
    import importlib

    import pygame

    from playtester import probe
    from playtester.drive.inputs import key_code

    if spec.kind != "module" or not spec.function:
        raise UsageError("--play records games given as module:function or a bundled name")
    cfg = cfg or config_for(spec)
    keys = {key_code(k): a for a in cfg.gameplay_actions for k in cfg.controls[a].keys}
    frames_per_step = spec.config.frames_per_action
    rec = Recorder(cfg, every)
    sink = _Sink()
    state: dict[str, Any] = {"frame": 0, "pending": None, "held": frozenset(), "before": {}}
    orig_get, orig_flip, orig_pressed = pygame.event.get, pygame.display.flip, pygame.key.get_pressed

    def get(*a: Any, **k: Any) -> list[Any]:
        if script and state["frame"] in script:
            for name_ in script.pop(state["frame"]):
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key_code(name_), mod=0, unicode="",
                                                     scancode=0))
        evs = orig_get(*a, **k)
        for ev in evs:
            if ev.type == pygame.KEYDOWN and ev.key in keys and state["pending"] is None:
                state["pending"] = keys[ev.key]
                state["before"] = dict(sink.entities)
        return evs

    def pressed() -> Any:
        if held is None:
            return orig_pressed()
        for f in sorted(held):
            if f <= state["frame"]:
                state["held"] = frozenset(key_code(k) for k in held[f])

        class _P:
            def __getitem__(self, k: int) -> bool:
                return k in state["held"]
        return _P()

    def flip(*a: Any, **k: Any) -> Any:
        out = orig_flip(*a, **k)
        state["frame"] += 1
        if state["frame"] % frames_per_step == 0 or state["pending"] is not None:
            p = sink.entities.get(cfg.player)
            before = state["before"] if state["pending"] else dict(sink.entities)
            rec.step(p[1] if p else None, state["pending"], before, list(sink.events))
            sink.events.clear()
            state["pending"] = None
        return out

    old_sink = probe._sink
    pygame.event.get, pygame.display.flip, pygame.key.get_pressed = get, flip, pressed
    probe._sink = sink
    try:
        module = importlib.import_module(spec.target)
        getattr(module, spec.function)(**spec.config.game_args)
    finally:
        pygame.event.get, pygame.display.flip, pygame.key.get_pressed = orig_get, orig_flip, orig_pressed
        probe._sink = old_sink
    p = sink.entities.get(cfg.player)
    rec.finish(p[1] if p else None)
    return rec.plan(name, spec.text, "recorded from a play session")
