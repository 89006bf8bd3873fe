"""The Ray backend's cost: steps/s of a campaign with 2 workers, local vs Ray (``--backend ray``), side by side,
one step per call to the worker and acting ahead (batches of ``--ahead`` steps, one call each).

Issue 21's target: Ray >= 0.9 of local. Measured here, on one machine with a local Ray instance (the actors
run on the same cores as the parent and the games):

  steps/s        `run_agent` (``playtester run``): random agent, 2 workers, a fixed step budget, blockmaze's
                 analyzed space (made once; its action masks change from step to step), no frames captured;
                 the loop's own time (since 2026-11-27: from every worker's first episode started to the
                 budget; before, from the first reset, so Ray's figure held its actors' start), not worker
                 start-up (``startup_s``: the loop's `startup_s`, per run). Four runs a
                 round: ``local`` and ``ray`` one step per call (the loop's ``ahead`` = 1), ``local_ahead``
                 and ``ray_ahead`` acting ahead (``--ahead``, by default the loop's `AHEAD`: 8 until
                 2026-11-27, 32 since; the random agent's plan chooses each step's action on its mask where
                 the game runs, up to ``--ahead`` steps per Ray actor call); their order rotates every round, so each round's ratios are side by side. Median and
                 best round (interference only slows a run, so the best round is the code's own speed; the
                 median is what the machine gave).
  parent CPU     process time of the parent (every thread: Ray's core worker threads included) over the loop,
                 per step: what bounds how many workers one driver can feed.
  job CPU        CPU time of the parent and every process under it (worker hosts, episodes, a local Ray's
                 raylet, GCS and actors) from a tenth of the budget to its end, per step: what a step costs the
                 machine, whatever else runs on it (on a loaded machine steps/s ratios also reflect how the
                 scheduler shares the cores among more or fewer processes).
  by process     the job's CPU split by what each process is (`role`): the driver, the actors (`WorkerHost`),
                 the worker hosts, the episodes (the games), the local Ray's daemons one by one (gcs_server,
                 raylet, dashboard agent, runtime env agent, log monitor, autoscaler monitor, dashboard head),
                 idle Ray workers, the lifetime guard; ms per step over the same stretch, for every run, local
                 ones included (the local Ray instance runs through the whole bench) and the median by kind.
  steady steps/s the same steps/s from a tenth of the budget to its end, and the time to the first step: a Ray
                 actor starts (its Worker's host process) while the loop waits for its first reset, a local
                 Worker before the loop (before the loop's clock started after the first resets, the loop's
                 steps/s held Ray's start-up and not local's).
  load           cores the whole machine was busy over that stretch, and how many of them were other work
                 (``others_cores``: what else ran on the machine while this run was measured).
  latency        one worker stepped one step at a time (act, wait, act...): microseconds per step, local Worker
                 vs RayWorker, and a Ray actor call that does nothing (the per-call floor Ray adds); and the
                 same worker acting ahead (``act_ahead``, batches of ``--ahead``).

The machine is shared: `uptime`'s load averages before and after are recorded; run it under ``nice``.
Writes bench/results/ray_backend.json (``--name``: another name; command, commit, machine, date); asserts nothing.
``--ray-defaults`` runs the Ray backend as it was before its tuning (`playtester.drive.ray_worker`'s
``LOCAL_SYSTEM_CONFIG``, ``TASK_EVENTS``, ``COMPACT``, ``DEPTH``), for a before/after on the same machine; the
settings a run used are in its results (``ray_settings``).
``--sends-too`` adds a fifth run a round: local acting ahead with ``PLAYTESTER_EPISODE_PLAYS=0`` (the worker sends each
batch step, as before the episode played the plan itself; a running Ray instance's actors do not see the variable,
so Ray runs only as the default).
Usage: nice -n 10 python bench/ray_backend.py [--steps 1000] [--rounds 4] [--latency-steps 300] [--ahead 8]
       [--name NAME] [--ray-defaults] [--sends-too] [--ahead-too K] [--before-too]
``--before-too`` adds a run a round: Ray acting ahead as before 2026-11-28 (``ray_ahead_before``): each actor's game
stopping after the steps of each call (`ray_worker.PLAY_ON` off; since then it plays the whole plan while the answers
cross Ray, `WorkerHost.act_ahead`) and the actor unpickling and pickling again every step (`ray_worker.RELAY` off;
since then it relays the steps it does not read in the game's bytes); ``--ray-defaults`` turns both off too.
``--ahead-too K`` adds a run a round: Ray acting ahead with K steps per actor call (``ray_ahead_K``; how the default
``--ahead`` was chosen: ``--game dungeon --ahead 32 --ahead-too 8``, a game the README's table does not report).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import psutil
from provenance import provenance, write_results

import playtester.campaign.loop as loop_module
import playtester.drive.ray_worker as ray_worker
from playtester.agents.common import RandomPlan
from playtester.campaign import run_agent
from playtester.drive.ray_worker import RayWorker, connect
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker
from playtester.env import resolve_space


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def job_cpu() -> float:
    """CPU seconds of this process and every process under it (worker hosts, episode processes, a local Ray's
    head processes and actors), the ended ones included through their parents' waited-children times."""
    me = psutil.Process()
    total = 0.0
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


ROLES = (  # (what a process's command line or name holds, its role in the breakdown), the first match wins
    ("playtester.drive.reaper", "guard"), ("playtester.drive.worker", "worker_host"), ("gcs_server", "gcs_server"),
    ("raylet", "raylet"), ("DashboardAgent", "dashboard_agent"), ("dashboard/agent.py", "dashboard_agent"),
    ("RuntimeEnvAgent", "runtime_env_agent"), ("runtime_env/agent", "runtime_env_agent"),
    ("log_monitor", "log_monitor"), ("autoscaler/_private/monitor.py", "autoscaler_monitor"),
    ("dashboard/dashboard.py", "dashboard_head"), ("ray::IDLE", "ray_idle_worker"), ("ray::", "actor"),
    ("default_worker.py", "ray_idle_worker"))


def role(p: psutil.Process, roles: dict[int, str]) -> str:
    """What a process of the job is: the driver, a worker host or an episode (the game, forked by a host), one
    of the local Ray's daemons, an actor (a `WorkerHost`), an idle Ray worker, or ``other``."""
    if p.pid == os.getpid():
        return "driver"
    try:
        text = p.name() + " " + " ".join(p.cmdline())
        ppid = p.ppid()
    except psutil.Error:
        return "other"
    if roles.get(ppid) in ("worker_host", "episode"):
        return "episode"  # forked by a worker host (and snapshots forked by an episode): no command line of its own
    return next((r for key, r in ROLES if key in text), "other")


def job_processes() -> dict[int, tuple[str, float, float]]:
    """Every process of the job (this one and every process under it) -> (role, its own CPU seconds, its waited
    children's). The children's times of a worker host are its ended episodes'."""
    me = psutil.Process()
    roles: dict[int, str] = {}
    out: dict[int, tuple[str, float, float]] = {}
    for p in [me, *me.children(recursive=True)]:  # parents before their children
        roles[p.pid] = role(p, roles)
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        out[p.pid] = (roles[p.pid], t.user + t.system, t.children_user + t.children_system)
    return out


def breakdown(before: dict[int, tuple[str, float, float]], after: dict[int, tuple[str, float, float]],
              steps: int) -> dict[str, float]:
    """CPU milliseconds per step by role between two `job_processes` (a process that was not there before counts
    from its start; a worker host's waited children's times count as ``episode``)."""
    ms: dict[str, float] = {}
    for pid, (r, own, kids) in before.items():
        if pid not in after:  # ended between: its whole time is in its parent's waited children's now (an episode's
            k = "episode" if r in ("worker_host", "episode") else r  # in its host's), less what it had taken before
            ms[k] = ms.get(k, 0.0) - own - kids
    for pid, (r, own, kids) in after.items():
        r0, own0, kids0 = before.get(pid, (r, 0.0, 0.0))
        ms[r] = ms.get(r, 0.0) + own - own0
        if kids - kids0 > 0:
            k = "episode" if r == "worker_host" else r
            ms[k] = ms.get(k, 0.0) + kids - kids0
    return {r: round(1000 * v / max(1, steps), 4) for r, v in sorted(ms.items(), key=lambda kv: -kv[1]) if v > 0}


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core, every process: /proc/stat less idle and iowait)."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def campaign(spec, space, backend: str, steps: int, ahead: int, env: dict[str, str] | None = None,
             settings: dict[str, bool] | None = None) -> dict[str, float]:
    """One `run_agent` run with the loop's ``ahead``: steps/s of its loop, the parent's CPU seconds per step
    over the loop, and the whole job's (every process under this one) from a tenth of the budget to its end
    (``run_agent`` has no ``ahead`` of its own: the loop's default is set for the run). ``settings``: the Ray
    backend's switches (`ray_worker`'s ``PLAY_ON``, ``RELAY``) for this run (None: as set)."""
    marks: list[tuple[float, int]] = []
    job: list[tuple[float, int]] = []
    procs: list[dict[int, tuple[str, float, float]]] = []
    machine: list[tuple[float, float]] = []

    def on_step(s) -> None:
        marks.append((time.process_time(), s.steps))
        if len(marks) == 1:
            first.append(time.perf_counter())
        if (not job and s.steps >= steps // 10) or (len(job) == 1 and s.steps >= steps):
            procs.append(job_processes())
            job.append((job_cpu(), s.steps))
            machine.append((machine_busy(), time.perf_counter()))

    first: list[float] = []
    default, loop_module.AHEAD = loop_module.AHEAD, ahead
    switched = {k: getattr(ray_worker, k) for k in settings or {}}
    for k, v in (settings or {}).items():
        setattr(ray_worker, k, v)
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})  # (a local worker's processes inherit it; a running Ray instance's actors do not)
    called = time.perf_counter()
    try:
        s = run_agent(spec, agent="random", steps=steps, workers=2, seed=0, actions=space, on_step=on_step,
                      backend=backend)
    finally:
        loop_module.AHEAD = default
        for k, v in switched.items():
            setattr(ray_worker, k, v)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    (c0, n0), (c1, n1) = marks[0], marks[-1]
    (j0, m0), (j1, m1) = job[0], job[-1]
    (b0, t0), (b1, t1) = machine[0], machine[-1]
    wall = max(t1 - t0, 1e-9)
    return {"steps_per_s": s.steps_per_s, "startup_s": round(s.startup_s, 3), "cpu_ms_per_step": 1000 * (c1 - c0) / max(1, n1 - n0), "steps": s.steps,
            "job_cpu_ms_per_step": 1000 * (j1 - j0) / max(1, m1 - m0),
            "cpu_ms_per_step_by_role": breakdown(procs[0], procs[-1], m1 - m0),
            # the load: cores the machine was busy over the same stretch, and how many of them were not this job
            "machine_busy_cores": round((b1 - b0) / wall, 2), "others_cores": round(max(0.0, b1 - b0 - (j1 - j0)) / wall, 2),
            # steps/s from a tenth of the budget to its end (the loop's steps/s above also holds its first steps:
            # a Ray actor's own start, its Worker's host process, happens then, a local Worker's before the loop)
            "steady_steps_per_s": (m1 - m0) / wall, "first_step_s": round(first[0] - called, 3)}


def latency(spec, space, backend: str, n: int, ahead: int = 1) -> float:
    """Microseconds per step of one worker stepped one step at a time (act, wait for its answer, act...), or
    (``ahead`` > 1) in batches of ``ahead`` steps chosen by a random plan (`act_ahead`)."""
    w = Worker(spec, space, capture=None) if backend == "local" else RayWorker(spec, space, capture=None)
    try:
        obs = w.reset(seed=0)
        plan = RandomPlan.of(np.random.default_rng(0), len(space))
        done = 0
        t = time.perf_counter()
        while done < n:
            a = plan.choose(obs.action_mask)
            if ahead > 1:
                _, out = w.act_ahead(a, plan, min(ahead, n - done))
            else:
                out = [w.act(a)]
            done += len(out)
            obs = out[-1]
            if obs.done:
                obs = w.reset(seed=done)
        return 1e6 * (time.perf_counter() - t) / done
    finally:
        w.close()


def null_call_us(ray, n: int = 500) -> float:
    @ray.remote
    class Null:
        def ping(self, x: int) -> int:
            return x

    a = Null.remote()
    ray.get(a.ping.remote(0))
    t = time.perf_counter()
    for i in range(n):
        ray.get(a.ping.remote(i))
    us = 1e6 * (time.perf_counter() - t) / n
    ray.kill(a)
    return us


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="blockmaze")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--latency-steps", type=int, default=300)
    ap.add_argument("--ahead", type=int, default=loop_module.AHEAD,
                    help="steps per batch in the acting-ahead runs (default: the loop's, `AHEAD`)")
    ap.add_argument("--name", default="ray_backend", help="results file name under bench/results")
    ap.add_argument("--ray-defaults", action="store_true",
                    help="the Ray backend as before its tuning, for comparison: Ray's own settings for the local "
                         "instance (workers at nice 15, event stats, metrics), task events on, answers through "
                         "Ray's serializer, one call of a plan in flight")
    ap.add_argument("--sends-too", action="store_true",
                    help="also run local acting ahead with the worker sending each batch step "
                         "(PLAYTESTER_EPISODE_PLAYS=0: the episode does not play the plan itself), in the same rounds")
    ap.add_argument("--before-too", action="store_true",
                    help="also run Ray acting ahead as before 2026-11-28 (PLAY_ON and RELAY off: the actors' games "
                         "stop after each call's steps, the actors unpickle every step), in the same rounds")
    ap.add_argument("--ahead-too", type=int, default=None, metavar="K",
                    help="also run Ray acting ahead with K steps per actor call (ray_ahead_K), in the same rounds")
    args = ap.parse_args()
    if args.ray_defaults:
        ray_worker.LOCAL_SYSTEM_CONFIG, ray_worker.TASK_EVENTS, ray_worker.COMPACT, ray_worker.DEPTH = {}, True, False, 1
        ray_worker.PLAY_ON = ray_worker.RELAY = False
    made = provenance()
    load_before = load()
    spec = resolve(args.game)
    space = resolve_space(spec, "analyzed")
    t = time.perf_counter()
    ray = connect(None)
    init_s = time.perf_counter() - t
    kinds = {"local": ("local", 1, None, None), "ray": ("ray", 1, None, None),
             "local_ahead": ("local", args.ahead, None, None), "ray_ahead": ("ray", args.ahead, None, None)}
    if args.sends_too:
        kinds["local_ahead_sends"] = ("local", args.ahead, {"PLAYTESTER_EPISODE_PLAYS": "0"}, None)
    other = f"ray_ahead_{args.ahead_too}" if args.ahead_too else None
    if other:
        kinds[other] = ("ray", args.ahead_too, None, None)
    if args.before_too:
        kinds["ray_ahead_before"] = ("ray", args.ahead, None, {"PLAY_ON": False, "RELAY": False})
    order = list(kinds)
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for r in range(args.rounds):
        k = r % len(order)
        for kind in order[k:] + order[:k]:  # the order rotates: each kind goes first once in len(kinds) rounds
            backend, ahead, env, settings = kinds[kind]
            runs[kind].append(campaign(spec, space, backend, args.steps, ahead, env, settings))
            print(f"round {r + 1} {kind:11s} {runs[kind][-1]['steps_per_s']:7.1f} steps/s  "
                  f"parent {runs[kind][-1]['cpu_ms_per_step']:.3f} ms CPU/step  "
                  f"job {runs[kind][-1]['job_cpu_ms_per_step']:.3f} ms CPU/step  steady "
                  f"{runs[kind][-1]['steady_steps_per_s']:.1f} steps/s  first step {runs[kind][-1]['first_step_s']} s  "
                  f"others {runs[kind][-1]['others_cores']} cores", flush=True)
    lat = {b: latency(spec, space, b, args.latency_steps) for b in ("local", "ray")}
    lat_ahead = {b: latency(spec, space, b, args.latency_steps, args.ahead) for b in ("local", "ray")}
    null_us = null_call_us(ray)
    ray.shutdown()

    def summary(b: str) -> dict[str, float]:
        sps = [x["steps_per_s"] for x in runs[b]]
        cpu = [x["cpu_ms_per_step"] for x in runs[b]]
        return {"steps_per_s_median": round(statistics.median(sps), 1), "steps_per_s_best": round(max(sps), 1),
                "parent_cpu_ms_per_step_median": round(statistics.median(cpu), 3),
                "parent_cpu_ms_per_step_best": round(min(cpu), 3),
                "job_cpu_ms_per_step_median": round(statistics.median(x["job_cpu_ms_per_step"] for x in runs[b]), 3),
                "others_cores_median": round(statistics.median(x["others_cores"] for x in runs[b]), 2),
                "steady_steps_per_s_median": round(statistics.median(x["steady_steps_per_s"] for x in runs[b]), 1),
                "steady_steps_per_s_best": round(max(x["steady_steps_per_s"] for x in runs[b]), 1),
                "first_step_s_median": round(statistics.median(x["first_step_s"] for x in runs[b]), 3),
                "cpu_ms_per_step_by_role_median": by_role(runs[b]),
                "rounds": runs[b]}

    def by_role(rounds: list[dict]) -> dict[str, float]:
        """Each role's median CPU ms per step over the rounds (0 in a round where the role took none)."""
        names = sorted({r for x in rounds for r in x["cpu_ms_per_step_by_role"]})
        med = {r: round(statistics.median(x["cpu_ms_per_step_by_role"].get(r, 0.0) for x in rounds), 4)
               for r in names}
        return dict(sorted(med.items(), key=lambda kv: -kv[1]))

    s = {k: summary(k) for k in kinds}

    def ratios(num: str, den: str) -> dict[str, object]:
        steady = [y["steady_steps_per_s"] / x["steady_steps_per_s"] for x, y in zip(runs[den], runs[num], strict=True)]
        per_round = [y["steps_per_s"] / x["steps_per_s"] for x, y in zip(runs[den], runs[num], strict=True)]
        return {"median": round(s[num]["steps_per_s_median"] / s[den]["steps_per_s_median"], 3),
                "best": round(s[num]["steps_per_s_best"] / s[den]["steps_per_s_best"], 3),
                "per_round": [round(x, 3) for x in per_round],
                # the side-by-side ratios' own median and best (above: the medians' and the best rounds' ratios)
                "per_round_median": round(statistics.median(per_round), 3), "per_round_best": round(max(per_round), 3),
                # the same side by side from a tenth of the budget on (start-up left out on both sides)
                "steady_per_round": [round(x, 3) for x in steady], "steady_median": round(statistics.median(steady), 3),
                "steady_best": round(max(steady), 3)}

    one, ahead_vs_ahead, ahead_vs_one = ratios("ray", "local"), ratios("ray_ahead", "local_ahead"), \
        ratios("ray_ahead", "local")
    record = {
        "game": args.game, "workers": 2, "agent": "random", "steps_per_run": args.steps, "rounds": args.rounds,
        "ahead": args.ahead, "order": ", ".join(order) + ", rotated by one every round",
        "nice": os.nice(0), "load_before": load_before, "load_after": load(), "ray_init_s": round(init_s, 1),
        # one step per call to the worker (ahead = 1), as before acting ahead
        "local": s["local"], "ray": s["ray"],
        "ratio_median": one["median"], "ratio_best": one["best"], "ratio_per_round": one["per_round"],
        # acting ahead: batches of up to `ahead` steps per call (one Ray actor call each)
        "local_ahead": s["local_ahead"], "ray_ahead": s["ray_ahead"],
        "ratio_ahead": ahead_vs_ahead,  # ray_ahead / local_ahead
        "ratio_ahead_vs_local": ahead_vs_one,  # ray_ahead / local (one step per call): issue 21's comparison
        "local_ahead_vs_local": ratios("local_ahead", "local"),
        **({"local_ahead_sends": s["local_ahead_sends"],
            # the episode playing the plan itself (the default since 2026-11-27) against the worker sending each step
            "local_ahead_vs_sends": ratios("local_ahead", "local_ahead_sends"),
            "ray_ahead_vs_local_sends": ratios("ray_ahead", "local_ahead_sends")} if args.sends_too else {}),
        **({"ray_ahead_before": s["ray_ahead_before"], "ratio_ray_ahead_before": ratios("ray_ahead_before", "local_ahead"),
            # acting ahead now / as before 2026-11-28 (PLAY_ON and RELAY off), side by side
            "ray_ahead_vs_before": ratios("ray_ahead", "ray_ahead_before")} if args.before_too else {}),
        **({other: s[other], f"ratio_{other}": ratios(other, "local_ahead"),
            f"ray_ahead_vs_{other}": ratios("ray_ahead", other)} if other else {}),
        "latency_us_per_step": {"local": round(lat["local"]), "ray": round(lat["ray"]),
                                "ray_extra": round(lat["ray"] - lat["local"])},
        "latency_ahead_us_per_step": {"local": round(lat_ahead["local"]), "ray": round(lat_ahead["ray"]),
                                      "ray_extra": round(lat_ahead["ray"] - lat_ahead["local"])},
        "ray_null_call_us": round(null_us),
        "ray_settings": {"ray_defaults": args.ray_defaults, "local_system_config": ray_worker.LOCAL_SYSTEM_CONFIG,
                         "task_events": ray_worker.TASK_EVENTS, "compact": ray_worker.COMPACT,
                         "depth": ray_worker.DEPTH, "play_on": ray_worker.PLAY_ON,
                         "relay": ray_worker.RELAY},
    }
    for k in kinds:
        print(f"{k:11s} median {s[k]['steps_per_s_median']:7.1f} steps/s (best {s[k]['steps_per_s_best']:7.1f}); "
              f"parent CPU {s[k]['parent_cpu_ms_per_step_median']:.3f} ms/step (best "
              f"{s[k]['parent_cpu_ms_per_step_best']:.3f}); job CPU {s[k]['job_cpu_ms_per_step_median']:.3f} ms/step")
    for k in kinds:
        print(f"{k:11s} CPU ms/step by process (median): " + ", ".join(
            f"{r} {v:.3f}" for r, v in s[k]["cpu_ms_per_step_by_role_median"].items()) +
            f"; other work on the machine {s[k]['others_cores_median']} cores")
    print(f"ray/local one step per call: median {one['median']}, best {one['best']}, per round {one['per_round']} "
          f"(their median {one['per_round_median']})")
    print(f"ray/local acting ahead ({args.ahead}): median {ahead_vs_ahead['median']}, best {ahead_vs_ahead['best']}, "
          f"per round {ahead_vs_ahead['per_round']} (their median {ahead_vs_ahead['per_round_median']}); from a tenth "
          f"of the budget on: per round {ahead_vs_ahead['steady_per_round']} (median {ahead_vs_ahead['steady_median']})")
    if other:
        print(f"ray acting ahead ({args.ahead_too}) / local acting ahead: per round {record[f'ratio_{other}']['per_round']} "
              f"(median {record[f'ratio_{other}']['per_round_median']}); ray ({args.ahead}) / ray ({args.ahead_too}): "
              f"median round {record[f'ray_ahead_vs_{other}']['per_round_median']}")
    if args.before_too:
        print(f"ray acting ahead as before 2026-11-28 / local acting ahead: per round "
              f"{record['ratio_ray_ahead_before']['per_round']} (median "
              f"{record['ratio_ray_ahead_before']['per_round_median']}); now / before: per round "
              f"{record['ray_ahead_vs_before']['per_round']} (median {record['ray_ahead_vs_before']['per_round_median']})")
    if args.sends_too:
        sends = record["local_ahead_vs_sends"]
        print(f"local acting ahead, the episode playing the plan / the worker sending each step: per round "
              f"{sends['per_round']} (median {sends['per_round_median']})")
    print(f"ray acting ahead / local one step per call: median {ahead_vs_one['median']}, best {ahead_vs_one['best']}, "
          f"per round {ahead_vs_one['per_round']}")
    print(f"one worker: one step at a time local {lat['local']:.0f} us/step, ray {lat['ray']:.0f} us/step; acting "
          f"ahead local {lat_ahead['local']:.0f}, ray {lat_ahead['ray']:.0f}; a null Ray actor call {null_us:.0f} us; "
          f"load {load_before} -> {record['load_after']}")
    print(write_results(args.name, record, made))


if __name__ == "__main__":
    main()
