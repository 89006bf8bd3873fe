"""Inside a worker: run a Gymnasium environment with a discrete action space as a playtester game.

The environment gets the same treatment as a pygame game: its own process, crashes and hangs turned
into findings, frames as RGB arrays (``render_mode="rgb_array"``), and the agent position reported as
an entity and as ``x``/``y`` features when the environment has an ``agent_pos`` (MiniGrid does).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from playtester.drive import messages as wire
from playtester.drive.context import SpaceLike
from playtester.drive.episode import run_runner, seed_python, send, serve
from playtester.drive.inputs import InputFrame
from playtester.drive.observation import EpisodeOptions, GameExit, Observation, resize_nearest
from playtester.drive.spec import GameSpec


def describe_actions(gym_id: str) -> tuple[int, list[str]]:
    """Number and names of the environment's discrete actions (read in the parent, no rendering)."""
    import gymnasium as gym

    from playtester.errors import GameSpecError

    _register_plugins()
    try:
        env = gym.make(gym_id)
    except Exception as e:  # noqa: BLE001 - any failure here means the id does not resolve
        raise GameSpecError(f"gym:{gym_id} cannot be made: {type(e).__name__}: {e}") from None
    try:
        space = env.action_space
        if not isinstance(space, gym.spaces.Discrete):
            raise GameSpecError(f"gym:{gym_id} has action space {space}; playtester drives Discrete spaces only")
        n = int(space.n)
        enum = getattr(env.unwrapped, "actions", None)
        names = [f"action {i}" for i in range(n)]
        if enum is not None:
            try:
                names = [enum(i).name for i in range(n)]
            except Exception:  # noqa: BLE001
                pass
        return n, names
    finally:
        env.close()


def _register_plugins() -> None:
    try:
        import minigrid  # noqa: F401  (registers MiniGrid-* ids)
    except ImportError:
        pass


class GymRunner:
    """Steps one Gymnasium environment on commands from the parent."""

    def __init__(self, conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, capture: Any) -> None:
        import gymnasium as gym

        _register_plugins()
        self.conn, self.spec, self.space, self.capture = conn, spec, space, capture
        self.env = gym.make(spec.target, render_mode="rgb_array")
        self.seed = seed
        self.frame_no = 0
        self.total_reward = 0.0
        self.done = False
        self.ended = False
        self.pending: tuple[int, int] = (0, 1)

    def observe(self, reward: float, done: bool, exit: GameExit | None = None,
                info: dict[str, Any] | None = None) -> Observation:
        frame = None
        if self.capture is not None:
            frame = np.asarray(self.env.render(), dtype=np.uint8)
            if isinstance(self.capture, tuple) and frame.shape[1::-1] != tuple(self.capture):
                frame = resize_nearest(frame, self.capture)
        features = {"reward_total": self.total_reward}
        entities = {}
        pos = getattr(self.env.unwrapped, "agent_pos", None)
        if pos is not None:
            from playtester.drive.observation import Entity

            features.update(x=float(pos[0]), y=float(pos[1]))
            entities["agent"] = Entity("agent", "agent", (float(pos[0]), float(pos[1])), {})
        mask = np.ones(len(self.space), dtype=np.int8) if self.space is not None else None
        out_info: dict[str, Any] = {"inputs_read": 1, "env_info": {k: v for k, v in (info or {}).items()
                                                                     if isinstance(v, (int, float, str, bool))}}
        if exit:
            out_info["exit"] = exit
        return Observation(frame=frame, features=features, entities=entities, done=done, frame_no=self.frame_no,
                           time_ms=self.frame_no, reward=reward, action_mask=mask, info=out_info)

    # ---- the episode protocol (drive.episode.serve)
    def over(self) -> bool:
        return self.done

    def final_observation(self) -> Observation:
        return self.observe(0.0, True)

    def perform(self, action: int) -> tuple[InputFrame, int | None]:
        return self.space.actions[action].inputs, None  # type: ignore[union-attr]

    def begin_step(self, inputs: InputFrame, frames: int, hold: int | None) -> None:
        self.pending = (inputs.native if inputs.native is not None else 0, frames)

    def end(self) -> None:
        self.ended = True

    def call(self, target: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
        return False, f"{target}: a Gymnasium environment runs no playtester functions (no in-process hooks)"

    def snapshot(self) -> None:
        send(self.conn, wire.SnapshotTaken(None))  # no snapshots: the campaign returns by replaying traces

    def run(self) -> None:
        _, info = self.env.reset(seed=self.seed)
        send(self.conn, wire.Answer(self.observe(0.0, False, info=info)))
        while True:
            serve(self)
            if self.ended:
                return
            action, frames = self.pending
            reward, terminated = 0.0, False
            for _ in range(frames):
                _, r, terminated, truncated, info = self.env.step(int(action))
                self.frame_no += 1
                reward += float(r)
                if terminated or truncated:
                    self.done = True
                    break
            self.total_reward += reward
            obs = self.observe(reward, self.done, info=info)
            if self.done:
                obs.info["done_reason"] = "terminated" if terminated else "truncated by the environment"
            send(self.conn, wire.Answer(obs))


def declared_actions(spec: GameSpec) -> tuple[int, list[str]]:
    """The environment's own discrete actions (the backend's ``declared``)."""
    return describe_actions(spec.target)


def run_gym_episode(conn: Any, spec: GameSpec, seed: int, space: SpaceLike | None, opts: EpisodeOptions) -> None:
    """Body of an episode process for a Gymnasium environment (Python's randomness seeded as a pygame game's, then
    the environment through ``reset(seed=)``)."""
    seed_python(seed, getattr(spec.config, "seeded_entropy", True))
    run_runner(conn, getattr(spec.config, "memory_limit_mb", None),
               lambda: GymRunner(conn, spec, seed, space, opts.capture))
