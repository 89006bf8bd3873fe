"""`GameEnv`: any game playtester can drive, as a Gymnasium environment.

Each action of the action space is held for ``frames_per_action`` frames (10 by default, as in the
action-space paper); ``info["action_mask"]`` says which actions are valid now (``np.int8``, shape
``(n,)``). Observations are downscaled RGB pixels or the probe's feature vector. An episode ends
(``terminated``) when the game ends, crashes, hangs or meets its done condition, and is truncated at
the episode step limit. `VectorGameEnv` runs several games in parallel, one worker process each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from playtester.actions import ActionSpace, make_space, native_space
from playtester.drive.backend import backend_for
from playtester.drive.observation import Observation, resize_nearest
from playtester.drive.spec import GameSpec, resolve
from playtester.drive.worker import Worker
from playtester.drive.workerlike import WorkerLike
from playtester.errors import UsageError


def space_from_dict(data: dict[str, Any]) -> ActionSpace:
    """A serialized action space (`actions.space.space_to_dict`) of any kind, the analyzed one included (its
    loader is the entry point ``analysis`` of ``playtester.spaces``)."""
    from playtester.actions.space import space_from_dict as load

    return load(data)

ObsType = Literal["pixels", "features"]


def default_space(spec: GameSpec) -> ActionSpace:
    """The action space a game gets when none is named: native for Gymnasium ids, the space its config
    names (a manual YAML file, or ``analyzed``), else ``analyzed`` from program analysis, falling back
    to ``blind`` with a warning that says why when the analysis fails."""
    backend = backend_for(spec)
    if backend.capabilities.declared_actions:
        return native_space(*backend.call("declared", spec))
    cfg_actions = spec.config.actions
    if cfg_actions and cfg_actions not in ("analyzed", "blind"):
        base = Path(spec.config_path).parent if spec.config_path else Path.cwd()
        return make_space(f"manual:{base / cfg_actions}", spec.config.blacklist)
    if cfg_actions == "blind":
        return make_space("blind", spec.config.blacklist)
    return analyzed_space(spec, fallback=True)


def analyzed_space(spec: GameSpec, fallback: bool = False) -> ActionSpace:
    """The ``analyzed`` space of a pygame game; with ``fallback``, ``blind`` (with a warning) on failure."""
    from playtester.analysis import AnalysisError, analyze

    try:
        analysis = analyze(spec)
    except AnalysisError as e:
        if not fallback:
            raise
        space = make_space("blind", spec.config.blacklist)
        space.warnings.append(f"action-space analysis failed, using the blind space instead: {e}")
        return space
    space = analysis.space()
    space.warnings.extend(analysis.warnings[:20])
    return space


def resolve_space(spec: GameSpec, actions: str | ActionSpace | None) -> ActionSpace:
    """An action space from a CLI-style name (``blind``, ``manual:FILE``, ``default``) or as given."""
    if isinstance(actions, ActionSpace):
        return actions
    if actions in (None, "default"):
        return default_space(spec)
    if backend_for(spec).capabilities.declared_actions and not backend_for(spec).capabilities.analysis:
        raise UsageError(f"{spec.text} declares its own discrete actions; leave --actions out for it")
    if actions == "analyzed":
        return analyzed_space(spec)
    if isinstance(actions, str) and actions.startswith("analyzed:"):
        from playtester.analysis.export import load_analyzed

        return load_analyzed(actions.split(":", 1)[1])
    return make_space(actions, spec.config.blacklist)


def make_worker(backend: str | None, spec: GameSpec, space: Any = None, **kwargs: Any) -> WorkerLike:
    """A worker for ``backend`` (``local``, None, ``ray`` or ``ray:ADDRESS``): a `Worker`, or a `RayWorker`
    (Ray is imported only then: it is the ``ray`` extra); either is a `WorkerLike`, used as one."""
    from playtester.drive.ray_worker import parse_backend

    kind, address = parse_backend(backend)
    if kind == "local":
        return Worker(spec, space, **kwargs)
    from playtester.drive.ray_worker import RayWorker

    return RayWorker(spec, space, address=address, **kwargs)


class GameEnv(gym.Env):
    """A game as a Gymnasium environment, driven in its own worker process.

    Args:
        game: a game spec string or a resolved `GameSpec`.
        actions: ``"blind"``, ``"manual:FILE"``, an `ActionSpace`, or None for the game's default.
        obs_type: ``"pixels"`` (RGB, ``obs_size``) or ``"features"`` (the probe's features, float32).
        obs_size: (width, height) of pixel observations.
        frames_per_action: frames each action is held; the game config's value by default.
        max_episode_steps: steps before an episode is truncated; the game config's value by default.
        render_mode: ``"rgb_array"`` to make `render` return the latest frame.
        capture: override what frames the worker captures: None (no frames), ``"full"``, or a size.
        code_coverage: measure statement coverage of the game's source in the worker.
        backend: where the worker runs: ``"local"`` (a `Worker`: processes of this machine), ``"ray"`` (a
            `RayWorker` in an actor of a local Ray instance) or ``"ray:HOST:PORT"`` (an actor of that Ray
            cluster); see `make_worker`.
        oracles: check each step where the worker is (`Worker`'s ``oracles``: a picklable callable making an
            episode's oracle suite; its findings come back in ``last_obs.info["findings"]``); None: no checks there.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(self, game: str | GameSpec, actions: str | ActionSpace | None = None,
                 obs_type: ObsType = "pixels", obs_size: tuple[int, int] = (84, 84),
                 frames_per_action: int | None = None, max_episode_steps: int | None = None,
                 render_mode: str | None = None, capture: Any = "obs", code_coverage: bool = False,
                 backend: str | None = None, oracles: Any = None) -> None:
        self.spec_ = game if isinstance(game, GameSpec) else resolve(game)
        if obs_type not in ("pixels", "features"):
            raise UsageError(f"obs_type must be 'pixels' or 'features', not {obs_type!r}")
        if render_mode not in (None, "rgb_array"):
            raise UsageError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self.space = resolve_space(self.spec_, actions)
        self.obs_type = obs_type
        self.obs_size = (int(obs_size[0]), int(obs_size[1]))
        self.frames_per_action = frames_per_action or self.spec_.config.frames_per_action
        self.max_episode_steps = max_episode_steps or self.spec_.config.max_episode_steps
        self.render_mode = render_mode
        if capture == "obs":
            capture = self.obs_size if (obs_type == "pixels" or render_mode) else None
        self.worker: WorkerLike = make_worker(backend, self.spec_, self.space, capture=capture,
                                              code_coverage=code_coverage,
                                              **({"oracles": oracles} if oracles is not None else {}))
        self.action_space = gym.spaces.Discrete(len(self.space))
        self.feature_names: list[str] = list(self.spec_.config.features or [])
        if obs_type == "features" and not self.feature_names:
            first = self.worker.reset(seed=0)
            self.feature_names = sorted(first.features)
            if not self.feature_names:
                raise UsageError(f"{self.spec_.text} reports no probe features; use obs_type='pixels' or "
                                 "add probe.observe(...) calls to the game")
        if obs_type == "pixels":
            w, h = self.obs_size
            self.observation_space = gym.spaces.Box(0, 255, (h, w, 3), np.uint8)
        else:
            self.observation_space = gym.spaces.Box(-np.inf, np.inf, (len(self.feature_names),), np.float32)
        self.last_obs: Observation | None = None
        self.episode_steps = 0

    # ---- gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(0, 2**31 - 1)) if seed is None else int(seed)
        obs = self.worker.reset(seed=episode_seed)
        self.episode_steps = 0
        self.last_obs = obs
        info = self._info(obs)
        info["seed"] = episode_seed
        return self._convert(obs), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.step_async(action)
        return self.step_wait()

    def step_async(self, action: int) -> None:
        self.worker.act_async(int(action), self.frames_per_action)

    # acting ahead (`CampaignLoop`): a batch of steps whose later actions ``plan`` chooses where the game runs
    @property
    def can_act_ahead(self) -> bool:
        """The worker plays batches (`WorkerLike.can_act_ahead`: the local `Worker` and the `RayWorker` do)."""
        return self.worker.can_act_ahead

    def act_ahead_async(self, action: int, plan: Any, n: int, chunk: int) -> None:
        """Start a batch of at most ``n`` steps, ``action`` first (`Worker.act_ahead_async`); `step_wait`
        answers its steps one at a time, `played` says each one's action."""
        self.worker.act_ahead_async(int(action), plan, n, self.frames_per_action, chunk)

    @property
    def ahead(self) -> bool:
        """The next `step_wait` answers a batch step that was not sent with `step_async`."""
        return self.worker.ahead

    @property
    def played(self) -> int | None:
        """The action of the step `step_wait` answered last."""
        return self.worker.played

    def step_wait(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs = self.worker.step_wait()
        self.episode_steps += 1
        self.last_obs = obs
        terminated = bool(obs.done)
        truncated = not terminated and self.episode_steps >= self.max_episode_steps
        return self._convert(obs), float(obs.reward), terminated, truncated, self._info(obs)

    def watch_states(self, state_key: Any) -> None:
        """The worker computes each step's abstract state where it runs (`WorkerLike.watch_states`)."""
        self.worker.watch_states(state_key)

    def snapshot(self) -> int | None:
        """Park a copy of the running episode (see `Worker.snapshot`); its id, or None."""
        return self.worker.snapshot()

    def restore(self, snapshot: int) -> tuple[np.ndarray, dict] | None:
        """Continue from a snapshot instead of the running episode: (obs, info), or None when it is gone.
        The episode's step count (for truncation) is the snapshot's."""
        obs = self.worker.restore(snapshot)
        if obs is None:
            return None
        self.episode_steps = self.worker.steps
        self.last_obs = obs
        return self._convert(obs), self._info(obs)

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self.last_obs is None:
            return None
        return self.last_obs.frame

    def close(self) -> None:
        self.worker.close()

    # ---- conversions
    def _convert(self, obs: Observation) -> np.ndarray:
        if self.obs_type == "features":
            return np.array([obs.features.get(n, 0.0) for n in self.feature_names], dtype=np.float32)
        if obs.frame is None:
            w, h = self.obs_size
            return np.zeros((h, w, 3), dtype=np.uint8)
        return np.ascontiguousarray(resize_nearest(obs.frame, self.obs_size), dtype=np.uint8)

    def _info(self, obs: Observation) -> dict[str, Any]:
        mask = obs.action_mask if obs.action_mask is not None else np.ones(len(self.space), dtype=np.int8)
        info: dict[str, Any] = {"action_mask": mask.astype(np.int8), "frame_no": obs.frame_no,
                                "time_ms": obs.time_ms, "features": obs.features,
                                "events": [e.name for e in obs.events],
                                "checks": [c.message for c in obs.checks]}
        if obs.exit is not None:
            info["exit"] = obs.exit
        if "done_reason" in obs.info:
            info["done_reason"] = obs.info["done_reason"]
        if "detections" in obs.info:  # the texture oracle's detections of this frame, checked where the game runs
            info["detections"] = obs.info["detections"]
        return info


class VectorGameEnv(VectorEnv):
    """Several `GameEnv`s stepped in parallel (each has its own worker process).

    Episodes reset automatically in the same step they end (``AutoresetMode.SAME_STEP``): the last
    observation and info of the finished episode are in ``infos["final_obs"]`` / ``infos["final_info"]``.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, game: str | GameSpec, num_envs: int, **kwargs: Any) -> None:
        spec = game if isinstance(game, GameSpec) else resolve(game)
        if num_envs < 1:
            raise UsageError("num_envs must be at least 1")
        self.envs = [GameEnv(spec, **kwargs)]
        kwargs["actions"] = self.envs[0].space  # analyze / load the action space once
        self.envs += [GameEnv(spec, **kwargs) for _ in range(num_envs - 1)]
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.space = self.envs[0].space
        self._seeds: list[int | None] = [None] * num_envs

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        seeds = seed if isinstance(seed, list) else [None if seed is None else seed + i for i in range(self.num_envs)]
        obs, infos = [], {}
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            o, info = env.reset(seed=s)
            obs.append(o)
            infos = self._add_info(infos, info, i)
        return np.stack(obs), infos

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        for env, a in zip(self.envs, actions, strict=True):
            env.step_async(int(a))
        obs = []
        rewards = np.zeros(self.num_envs)
        terms = np.zeros(self.num_envs, dtype=bool)
        truncs = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            o, r, term, trunc, info = env.step_wait()
            rewards[i] = r
            terms[i], truncs[i] = term, trunc
            if term or trunc:
                final_obs, final_info = o, info
                o, info = env.reset()
                info = dict(info, final_obs=final_obs, final_info=final_info)
            obs.append(o)
            infos = self._add_info(infos, info, i)
        return np.stack(obs), rewards, terms, truncs, infos

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
