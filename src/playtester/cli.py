"""The ``playtester`` command line. It only parses, calls, and prints.

Exit codes, one contract for every command, enforced in `main`:
0 no bug; 1 bugs that reproduced (``explore``: on replay; ``--fail-on flaky`` counts those that did not too;
``run``: game crashes, hangs, out of memory; ``replay``: not reproduced); 2 usage or input error (a bad spec, file,
stored trace, unknown bug id); 3 playtester itself failed (any unexpected exception: a one-line message and the
path of a log file that holds the traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from playtester.console import fail
from playtester.errors import PlaytesterError, UsageError
from playtester.plans.cli import plan_app
from playtester.vision.cli import vision_app

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Automated game testing: drive games headless, explore them, catch bugs.")
app.add_typer(plan_app, name="plan")
app.add_typer(vision_app, name="vision")
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


# options several commands share (one definition, one help text)
MEMORY_LIMIT_OPTION = typer.Option(None, "--memory-limit", help="data each episode process may use, e.g. 2G or "
                                   "1500M; 'off' for none (default: the config's, else half the machine's memory "
                                   "split over the workers)")
BACKEND_OPTION = typer.Option("local", "--backend", envvar="PLAYTESTER_BACKEND",
                              help="where the workers run: local (processes of this machine), ray (actors of a "
                              "local Ray instance) or ray:HOST:PORT (actors of that Ray cluster; the agent, coverage "
                              "and store stay here); needs the ray extra")
AHEAD_OPTION = typer.Option(None, "--ahead", min=1, envvar="PLAYTESTER_AHEAD",
                            help="acting ahead: an agent that chooses from the action mask alone (random) plays "
                            "several steps per call to a worker, every step still watched; the steps per Ray "
                            "actor call (default 32; 1: one step per call)")
SILENT_AUDIO_OPTION = typer.Option(None, "--silent-audio/--no-silent-audio",
                                   help="play sound and music files this machine cannot decode (MIDI without a "
                                   "synth) as silence, with a warning, instead of crashing (default: the config's "
                                   "silent_audio, else on without an audio device, as in workers)")


def _parse_game_args(items: list[str]) -> dict[str, Any]:
    from playtester.drive.spec import parse_game_args

    return parse_game_args(items)
SANDBOX_OPTION = typer.Option(None, "--sandbox/--no-sandbox",
                              help="run the episodes under bubblewrap: no network, writes only in the episode's copy "
                              "of the game's folder and its HOME; a denied attempt is a crash finding (default: the "
                              "config's sandbox, else off)")


def _with_sandbox(spec: Any, sandbox: bool | None) -> Any:
    """``--sandbox``/``--no-sandbox`` over the config's ``sandbox``; bubblewrap must be there when it is on."""
    if sandbox is not None:
        spec = spec.with_config(sandbox=sandbox)
    if spec.config.sandbox:
        from playtester.drive.sandbox import bwrap

        bwrap()
    return spec


def _with_memory_limit(spec: Any, text: str | None) -> Any:
    """``spec`` with --memory-limit applied (None: leave the config's, or the automatic default)."""
    if text is None:
        return spec
    from playtester.drive.lifetime import parse_memory

    mb = parse_memory(text)
    if mb is not None and 0 < mb < 64:
        raise UsageError(f"--memory-limit {text}: {mb} MiB is too little for any pygame game; give at least 64M")
    return spec.with_config(memory_limit_mb=mb)  # None ('auto'): settled per worker count by the run


_fail = fail


def _load_replayers() -> None:
    """Register the replayers of bug kinds that no oracle raises (failed plans), for replay and minimize."""
    import playtester.plans.runner  # noqa: F401


@app.command()
def games() -> None:
    """List the bundled games."""
    from playtester.drive.spec import bundled_games

    for name in bundled_games():
        console.print(name)


@app.command()
def analyze(
    game: str = typer.Argument(..., help="game spec: bundled name, module:function, or path/to/game.py"),
    json_file: Path | None = typer.Option(None, "--json", help="export the action space here (review, edit, "
                                          "then load with --actions manual:FILE or --actions analyzed:FILE)"),
    config: Path | None = typer.Option(None, help="playtester.toml to use instead of the game's own"),
    game_arg: list[str] = typer.Option([], help="keyword argument for the game's entry point, name=value"),
    seed: int = typer.Option(0, help="seed of the short random run that records the call graph"),
    limit: int = typer.Option(60, min=0, help="actions to list in the table (0: all)"),
    memory_limit: str | None = MEMORY_LIMIT_OPTION,
) -> None:
    """Work out what the player can do: actions from program analysis of the game's input handling."""
    from playtester.analysis import analyze as run_analysis
    from playtester.drive.spec import resolve

    try:
        spec = resolve(game, config=config)
        if game_arg:
            spec = spec.with_config(game_args=spec.config.game_args | _parse_game_args(game_arg))
        spec = _with_memory_limit(spec, memory_limit)
        a = run_analysis(spec, seed=seed)
    except PlaytesterError as e:
        _fail(e)
        return
    r = a.result
    st = r["stats"]
    loop = r["loop"]
    table = Table(title=f"{len(a.actions)} actions of {spec.text}", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("action (one solution of its inputs)")
    table.add_column("valid when (p_g)")
    table.add_column("inputs (p_i)")
    shown = a.actions if limit == 0 else a.actions[:limit]
    for i, act in enumerate(shown):
        table.add_row(str(i), act["name"], _clip(act["p_g_text"]), _clip(act["p_i_text"]))
    console.print(table)
    if len(shown) < len(a.actions):
        console.print(f"... {len(a.actions) - len(shown)} more (--limit 0 lists all, --json exports them)")
    t = r["timings"]
    console.print(f"main loop: {loop['file']}:{loop['line']} in {loop['function']}()")
    console.print(f"analysis {a.seconds:.2f} s (prepare {t['prepare_s']:.2f}, symbolic execution {t['execute_s']:.2f}, "
                  f"actions {t['actions_s']:.2f}) after a {a.run_seconds:.2f} s recording run")
    n_paths = len(a.paths)  # the solved paths the actions stand for (each once: an analysis again adds new ones)
    console.print(f"{len(a.actions)} actions from {n_paths} solved paths (paths with the same inputs are one action, "
                  "valid when one of them is)")
    from playtester.analysis.space import fallback_actions, needs_fallback

    if r.get("blacklist") is not None and needs_fallback(r):
        left = r.get("unanalysed") or []
        why = (f"the input loops {', '.join(left)} have no analysed actions" if left else
               "an analysis was partial")
        console.print(f"+ {len(fallback_actions(list(r['blacklist']), r.get('named_inputs')))} blind actions, valid only outside the "
                      f"analysed loops and in partial ones: {why}")
    console.print(f"paths {st['paths']} ({st['merged']} merged into others); statements kept {st['kept_statements']}, "
                  f"sliced away {st['sliced_statements']}; inlined: {', '.join(st['inlined']) or '-'}; "
                  f"summarized: {', '.join(st['summarized']) or '-'}")
    if r["unsupported"] or st["truncated"]:
        console.print("[yellow]not analysed (the space over-approximates here):[/]")
        for w in a.warnings:
            console.print(f"  {w}")
    if json_file is not None:
        from playtester.analysis.export import export

        export(r, spec.text, json_file)
        console.print(f"action space written to {json_file}")


def _clip(text: str, n: int = 70) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@app.command()
def run(
    game: str = typer.Argument(..., help="game spec: bundled name, module:function, file.py[:function], gym:ID, "
                               "doom:freedoom1:E1M1"),
    agent: str = typer.Option("random", help="agent that picks actions"),
    steps: int = typer.Option(1000, min=1, help="total steps over all workers"),
    workers: int = typer.Option(1, min=1, help="games run in parallel, one process each"),
    seed: int = typer.Option(0, help="seed of the first episode; later episodes use seed+1, seed+2, ..."),
    actions: str = typer.Option("default", help="action space: default, analyzed, blind, manual:FILE.yaml or analyzed:FILE.json"),
    frames_per_action: int | None = typer.Option(None, min=1, help="frames each action is held"),
    max_episode_steps: int | None = typer.Option(None, min=1, help="steps before an episode is truncated"),
    config: Path | None = typer.Option(None, help="playtester.toml to use instead of the game's own"),
    game_arg: list[str] = typer.Option([], help="keyword argument for the game's entry point, name=value"),
    json_out: Path | None = typer.Option(None, "--json", help="also write the summary as JSON here"),
    memory_limit: str | None = MEMORY_LIMIT_OPTION,
    silent_audio: bool | None = SILENT_AUDIO_OPTION,
    sandbox: bool | None = SANDBOX_OPTION,
    backend: str = BACKEND_OPTION,
    ahead: int | None = AHEAD_OPTION,
) -> None:
    """Drive a game with an agent and print what happened: steps/s, episodes, crashes, hangs."""
    from playtester.campaign import run_agent
    from playtester.drive import lifetime
    from playtester.drive.ray_worker import check_backend
    from playtester.drive.spec import resolve

    try:
        check_backend(backend)
        overrides: dict[str, Any] = {}
        if frames_per_action:
            overrides["frames_per_action"] = frames_per_action
        if max_episode_steps:
            overrides["max_episode_steps"] = max_episode_steps
        spec = resolve(game, config=config)
        if game_arg:
            overrides["game_args"] = spec.config.game_args | _parse_game_args(game_arg)
        if overrides:
            spec = spec.with_config(**overrides)
        spec = _with_memory_limit(spec, memory_limit)
        if silent_audio is not None:
            spec = spec.with_config(silent_audio=silent_audio)
        spec = _with_sandbox(spec, sandbox)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[stats]}"), TimeElapsedColumn(), console=console)
        with progress:
            task = progress.add_task(f"{agent} on {spec.name}", total=steps, stats="")

            seen: list[Any] = []  # the summary so far: printed if the run is stopped

            def on_step(s: Any) -> None:
                if not seen:
                    seen.append(s)
                if s.steps % 50 == 0 or s.steps >= steps:
                    progress.update(task, completed=s.steps,
                                    stats=f"{s.steps_per_s:,.0f} steps/s  episodes {len(s.episodes)}  "
                                          f"crashes {len(s.crashes)}  hangs {len(s.hangs)}"
                                          + (f"  out of memory {len(s.memory)}" if s.memory else ""))

            try:
                summary = run_agent(spec, agent=agent, steps=steps, workers=workers, seed=seed,
                                    actions=None if actions == "default" else actions, on_step=on_step,
                                    backend=backend, ahead=ahead)
            except lifetime.Interrupted:
                progress.stop()
                if seen:  # what ran before the stop: a person stopping a long run still gets its summary
                    console.print("[yellow]stopped: the summary of the steps run so far[/]")
                    _print_summary(seen[0])
                raise
            progress.update(task, completed=summary.steps)
    except PlaytesterError as e:
        _fail(e)
        return
    _print_summary(summary)
    if json_out:
        json_out.write_text(json.dumps(_summary_json(summary), indent=2, default=str))
    raise typer.Exit(1 if summary.crashes or summary.hangs or summary.memory else 0)


@app.command()
def explore(
    game: str | None = typer.Argument(None, help="game spec (leave out with --resume)"),
    out: Path = typer.Option(..., "--out", "-o", help="folder for the store, report.html, junit.xml, bugs/"),
    agent: str = typer.Option("random", help="agent that explores: random, curiosity (count-based curiosity "
                              "DQN), wuji (evolution + A2C), goexplore (archive of cells, returns by snapshot), "
                              "ppgta (preference-conditioned pixel agent, with --demos), inspector (its baseline); "
                              "options after a colon, e.g. wuji:population=8,runs=1"),
    budget: str = typer.Option("2000", help="time (10m, 90s, 1h) or steps (50000)"),
    workers: int = typer.Option(1, min=1, help="games run in parallel, one process each"),
    seed: int = typer.Option(0, help="seed of the first episode"),
    actions: str = typer.Option("default", help="action space: default, analyzed, blind, manual:FILE.yaml or analyzed:FILE.json"),
    resume: bool = typer.Option(False, "--resume", help="continue the unfinished campaign in --out"),
    code_coverage: bool = typer.Option(True, help="measure statement coverage of the game's source"),
    abstraction: str | None = typer.Option(None, help="state abstraction: auto, features, scene, pixels "
                                                        "(default: the game config's)"),
    shrink: bool = typer.Option(True, help="shrink each new bug's trace with delta debugging"),
    shrink_seconds: float = typer.Option(30.0, help="time budget to shrink one bug"),
    config: Path | None = typer.Option(None, help="playtester.toml to use instead of the game's own"),
    game_arg: list[str] = typer.Option([], help="keyword argument for the game's entry point, name=value"),
    demos: list[Path] = typer.Option([], help="demonstration to learn from before the first step (wuji, ppgta, "
                                     "inspector): a trace "
                                     "file, a folder of them, or a bug folder DIR/bugs/N; repeatable"),
    memory_limit: str | None = MEMORY_LIMIT_OPTION,
    silent_audio: bool | None = SILENT_AUDIO_OPTION,
    sandbox: bool | None = SANDBOX_OPTION,
    backend: str = BACKEND_OPTION,
    ahead: int | None = AHEAD_OPTION,
    fail_on: str = typer.Option("reproduced", "--fail-on", help="what sets exit code 1: reproduced (bugs that fired "
                                "again at their step when replayed; the default) or flaky (any bug, also those that "
                                "did not reproduce)"),
    oracles_in: str | None = typer.Option(None, "--oracles-in", envvar="PLAYTESTER_ORACLES",
                                          help="where the oracles check each step: worker (where the game runs: the "
                                          "Ray actor, or the local worker; the default) or parent (this process); "
                                          "the same findings either way"),
) -> None:
    """Run a testing campaign: explore, catch bugs with oracles, store them, write the report."""
    from rich.live import Live

    from playtester.campaign import Budget, Observer, check_fail_on
    from playtester.campaign import explore as run_explore
    from playtester.drive.ray_worker import check_backend
    from playtester.drive.spec import resolve

    try:
        check_backend(backend)
        check_fail_on(fail_on)
        parsed = Budget.parse(budget)
        spec = None
        if not resume:
            if game is None:
                raise UsageError("name a game to explore, or pass --resume to continue the campaign in --out")
            spec = resolve(game, config=config)
            if game_arg:
                spec = spec.with_config(game_args=spec.config.game_args | _parse_game_args(game_arg))
            spec = _with_memory_limit(spec, memory_limit)
            if silent_audio is not None:
                spec = spec.with_config(silent_audio=silent_audio)
            spec = _with_sandbox(spec, sandbox)
            if abstraction:
                if abstraction not in ("auto", "features", "scene", "pixels"):
                    raise UsageError(f"--abstraction {abstraction!r}: use auto, features, scene or pixels")
                spec = spec.with_config(abstraction=abstraction)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[stats]}"),
                            TimeElapsedColumn(), console=console)
        total = parsed.steps if parsed.steps is not None else parsed.seconds
        task = progress.add_task(f"exploring {spec.name if spec else 'resumed campaign'}", total=total, stats="")
        bugs_seen = [0]

        def on_progress(p: dict[str, Any]) -> None:
            if p["bugs"] is not None:
                bugs_seen[0] = p["bugs"]
            done = p["steps"] if parsed.steps is not None else p["seconds"]
            progress.update(task, completed=done, stats=f"steps {p['steps']:,}  episodes {p['episodes']}  "
                            f"states {p['states']:,}  bugs {bugs_seen[0]}")

        live = Live(progress, console=console, refresh_per_second=4)

        class EndLive(Observer):  # the progress bar ends with the loop, before the bugs are checked
            def on_end(self, loop: Any) -> None:
                live.stop()

        with live:
            result = run_explore(spec, out=out, agent=agent, budget=parsed, workers=workers, seed=seed,
                                 actions=None if actions == "default" else actions, resume=resume,
                                 code_coverage=code_coverage, on_progress=on_progress, demos=demos,
                                 backend=backend, ahead=ahead, oracles_in=oracles_in, observers=[EndLive()],
                                 shrink=shrink, shrink_seconds=shrink_seconds, fail_on=fail_on, on_check=_say_check)
    except PlaytesterError as e:
        _fail(e)
        return
    _print_result(result, resume, code_coverage)
    console.print(f"report: {result.report}\njunit:  {result.junit}\n"
                  f"replay a bug: playtester replay {out.resolve()}/bugs/ID")
    raise typer.Exit(result.exit_code)


def _say_check(bug_id: int | None, message: str) -> None:
    """What `campaign.finish_campaign` says as it checks bugs: a heading, then a line a bug."""
    console.print(message if bug_id is None else f"  bug {bug_id}: {message}", highlight=False)


def _print_result(result: Any, resume: bool, code_coverage: bool) -> None:
    """A finished campaign's table (`campaign.CampaignResult`), its warnings and its bugs."""
    store, cid = result.store, result.campaign_id
    campaign, bugs = store.campaign(cid), result.bugs
    if result.replayed_known:
        console.print(f"replayed {result.replayed_known} known failure(s) first: {result.reproduced_known} still fail")
    table = Table(title=f"playtester explore: {campaign.game}", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("steps", f"{result.steps:,} in {result.seconds:.0f} s ({result.episodes} episodes)"
                  + (" in all, the resumed campaign's earlier part included" if resume else ""))
    if result.stopped:
        table.add_row("stopped", result.stopped)
    table.add_row("states", f"{result.states:,} ({campaign.abstraction} abstraction)")
    if result.code_total:
        table.add_row("code coverage", f"{result.code_covered}/{result.code_total} statements "
                      f"({100 * result.code_covered / result.code_total:.0f}%) of the game's files that ran")
    else:
        table.add_row("code coverage", "off" if not code_coverage else "not measured (no Python source of the game)")
    if result.demos:
        d = result.demos
        table.add_row("demonstrations", f"{d['read'] + d['played']} ({d['read']} read from the cache, "
                      f"{d['played']} played, {d['seconds']:.1f} s)")
    flaky = [b for b in bugs if b.flaky]
    table.add_row("bugs", f"{len(bugs) - len(flaky)} reproduced" + (f", {len(flaky)} flaky (did not fire again "
                  "at their step when replayed)" if flaky else "") + f" ({len(result.new_bugs)} new)")
    lost = sum(1 for ep in store.episodes(cid) if ep["outcome"] == "worker_lost")
    if lost:
        table.add_row("workers lost", f"{lost} episode(s) ended when their Ray worker died (not game bugs)")
    console.print(table)
    for w in result.warnings:
        console.print(f"  [yellow]warning:[/] {w}", highlight=False)
    _print_bugs(bugs)


def _print_bugs(bugs: list[Any]) -> None:
    for b in bugs:
        length = len(b.trace.actions) if b.trace else 0
        shrunk = f" -> {len(b.min_trace.actions)}" if b.min_trace else ""
        flaky = " [yellow]FLAKY (did not reproduce)[/]" if b.flaky else ""
        console.print(f"  [bold]#{b.id}[/] {b.kind} x{b.count}: {escape(b.message)} (trace {length}{shrunk}){flaky}",
                      highlight=False)


@app.command()
def finalize(out: Path = typer.Argument(..., help="a campaign's folder (explore's --out)"),
             shrink: bool = typer.Option(True, help="shrink each bug's trace with delta debugging"),
             shrink_seconds: float = typer.Option(30.0, help="time budget to shrink one bug"),
             fail_on: str = typer.Option("reproduced", "--fail-on", help="reproduced or flaky (as explore's)")) -> None:
    """Finish a campaign that was stopped before its end: replay and shrink the bugs it stored but never checked,
    then write its report, junit.xml and bug folders again."""
    from playtester.campaign import check_fail_on, exit_code, finish_campaign, unfinished_bugs
    from playtester.store import Store

    _load_replayers()
    try:
        check_fail_on(fail_on)
        if not (out / "playtester.sqlite").is_file():
            raise UsageError(f"{out} holds no campaign (no playtester.sqlite); name the folder explore wrote (--out)")
        store = Store(out, create=False)
        c = store.campaign()
        if c is None:
            raise UsageError(f"{out}/playtester.sqlite holds no campaign yet")
        done = finish_campaign(store, c.id, unfinished_bugs(store, c.id), shrink=shrink,
                               shrink_seconds=shrink_seconds, fail_on=fail_on, on_check=_say_check)
    except PlaytesterError as e:
        _fail(e)
        return
    bugs = store.bugs(c.id)
    console.print(f"campaign {c.id} on {c.game}: {len(done.checked)} bug(s) checked now, {len(bugs)} in all")
    _print_bugs(bugs)
    console.print(f"report: {done.report}\njunit:  {done.junit}")
    raise typer.Exit(exit_code(bugs, fail_on))


# ------------------------------------------------------------------------------------------------ init
@app.command()
def init(
    game: str = typer.Argument(..., help="game spec: path/to/game.py[:function], module:function, or a folder"),
    out: Path | None = typer.Option(None, "--out", "-o", help="where to write the config (default: playtester.toml "
                                    "beside the game file, or in the current folder for a module)"),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
    seconds: float = typer.Option(3.0, "--seconds", help="game seconds to watch the first screen with no input"),
    game_arg: list[str] = typer.Option([], help="keyword argument for the game's entry point, name=value"),
    seed: int = typer.Option(0, help="seed of the probing episodes"),
) -> None:
    """Write a commented playtester.toml for a game: its controls, an init that gets past a title, and the
    quit / pause / fullscreen keys to blacklist, each found by playing the game briefly."""
    from playtester.campaign.init_config import config_target, picks_up, propose, render, write_config
    from playtester.drive.spec import resolve

    try:
        spec = resolve(game)
        if game_arg:
            spec = spec.with_config(game_args=spec.config.game_args | _parse_game_args(game_arg))
        target = config_target(game, spec, out)
        if target.exists() and not force:  # before minutes of probing, not after
            raise UsageError(f"{target} already exists; pass --force to replace it, or --out FILE to write elsewhere")
        proposal = propose(spec, seconds=seconds, seed=seed,
                           on_stage=lambda s: err_console.print(f"[dim]{s}...[/]", highlight=False))
        write_config(render(proposal), target, force)
    except PlaytesterError as e:
        _fail(e)
        return
    console.print(f"wrote {target} ({proposal.seconds:.1f} s)", highlight=False)
    console.print(f"  controls: {len(proposal.controls)} action(s)", highlight=False)
    console.print("  blacklist: " + (", ".join(f"{f.key} ({f.kind})" for f in proposal.blacklist) or "none found"),
                  highlight=False)
    console.print("  init: " + (", ".join("+".join(s.keys) or (f"click {s.mouse}" if s.buttons else f"wait {s.frames}")
                                          for s in proposal.init if s.keys or s.buttons or s.frames > 1)
                                if proposal.init else "none"), highlight=False)
    for t in proposal.todos:
        console.print(f"  [yellow]TODO:[/] {t}", highlight=False)
    if not picks_up(game, target):
        console.print(f"  {game} does not read {target} by itself: pass --config {target}", highlight=False)


def _bug_ref(ref: Path) -> tuple[Any, int]:
    """DIR/bugs/N (or DIR with --bug) -> (store, bug id)."""
    from playtester.store import Store

    if ref.parent.name == "bugs" and ref.name.isdigit():
        return Store(ref.parent.parent, create=False), int(ref.name)
    raise UsageError(f"{ref} is not a bug folder; write DIR/bugs/N (N is the bug id shown in the report)")


@app.command()
def replay(bug: Path = typer.Argument(..., help="DIR/bugs/N"),
           runs: int = typer.Option(2, min=1, help="replays; different outcomes flag the bug as flaky"),
           shrunk: bool = typer.Option(False, help="replay the shrunk trace instead of the original")) -> None:
    """Re-run a bug's trace and say whether the same signature fires at the same step."""
    from playtester.replay import replay_bug

    _load_replayers()

    try:
        store, bug_id = _bug_ref(bug)
        b = store.bug(bug_id)
        trace = b.min_trace if shrunk else b.trace
        if shrunk and trace is None:
            raise UsageError(f"bug {bug_id} has no shrunk trace yet; run 'playtester minimize {bug}'")
        report = replay_bug(b, runs=runs, trace=trace)
        store.set_bug(bug_id, flaky=not report.reproduced, replay=report.describe())
    except PlaytesterError as e:
        _fail(e)
        return
    console.print(f"bug {bug_id} ({b.kind}): {b.message}\n{report.describe()}", highlight=False)
    raise typer.Exit(0 if report.reproduced else 1)


@app.command()
def minimize(bug: Path = typer.Argument(..., help="DIR/bugs/N"),
             seconds: float = typer.Option(120.0, help="time budget"),
             max_tests: int = typer.Option(400, help="replay budget")) -> None:
    """Shrink a bug's trace with delta debugging to a 1-minimal trace with the same signature."""
    from playtester.replay import minimize_bug

    _load_replayers()

    try:
        store, bug_id = _bug_ref(bug)
        b = store.bug(bug_id)
        if b.trace is None:
            raise UsageError(f"bug {bug_id} has no trace")
        result = minimize_bug(b, max_tests=max_tests, max_seconds=seconds)
        if result.reproduced:
            store.set_bug(bug_id, min_trace=result.trace)
            folder = bug
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "min_trace.json").write_text(result.trace.to_json())
    except PlaytesterError as e:
        _fail(e)
        return
    if not result.reproduced:
        console.print(f"bug {bug_id}: {result.describe(len(b.trace.actions))}", highlight=False)
        raise typer.Exit(1)
    console.print(f"bug {bug_id}: {result.describe(len(b.trace.actions))}; saved to {folder / 'min_trace.json'}",
                  highlight=False)


def _print_summary(s: Any) -> None:
    table = Table(title=f"playtester run: {s.game}", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    blind = f", {s.blind_actions} of them blind for input loops not analysed" if s.blind_actions else ""
    table.add_row("agent / actions", f"{s.agent} / {s.actions} ({s.n_actions} actions{blind})")
    table.add_row("steps", f"{s.steps:,} in {s.seconds:.1f} s = {s.steps_per_s:,.0f} steps/s with {s.workers} "
                  f"worker{'s' if s.workers > 1 else ''}, after {s.startup_s:.1f} s of start-up")
    outcomes = ", ".join(f"{k} {s.count(k)}" for k in ("finished", "done", "truncated", "crash", "hang",
                                                        "memory", "worker_lost", "no-valid-action", "agent")
                         if s.count(k))
    table.add_row("episodes ended", f"{len(s.episodes)}" + (f" ({outcomes})" if outcomes else ""))
    table.add_row("game crashes", str(len(s.crashes)))
    table.add_row("hangs", str(len(s.hangs)))
    table.add_row("out of memory", f"{len(s.memory)} (limit {s.memory_limit_mb} MiB of data per episode)"
                  if s.memory_limit_mb else str(len(s.memory)))
    table.add_row("failed probe checks", f"{sum(s.checks.values())} ({len(s.checks)} distinct)")
    if s.game_startup_ms:
        ms = sorted(s.game_startup_ms)
        table.add_row("game start-up", f"{ms[len(ms) // 2]:,.0f} ms of game work before it first read input "
                      f"(median of {len(ms)} episode(s); not judged as slow frames)")
    console.print(table)
    shown: set[str] = set()
    for e in s.crashes + s.hangs + s.memory:
        assert e.exit is not None
        key = e.exit.message
        if key in shown:
            continue
        shown.add(key)
        where = f" at {Path(e.exit.frames[-1].file).name}:{e.exit.frames[-1].line}" if e.exit.frames else ""
        console.print(f"  [red]{e.outcome}[/] (seed {e.seed}, step {e.steps}){where}: {e.exit.message}",
                      highlight=False)
    for msg, n in s.checks.most_common(10):
        console.print(f"  [yellow]check failed[/] x{n}: {msg}", highlight=False)
    for w in s.warnings:
        console.print(f"  [yellow]warning:[/] {w}", highlight=False)


def _summary_json(s: Any) -> dict[str, Any]:
    return {
        "game": s.game, "agent": s.agent, "actions": s.actions, "n_actions": s.n_actions, "blind_actions": s.blind_actions, "workers": s.workers,
        "steps": s.steps, "seconds": s.seconds, "startup_s": s.startup_s, "steps_per_s": s.steps_per_s,
        "episodes": [{"worker": e.worker, "seed": e.seed, "steps": e.steps, "outcome": e.outcome,
                      "exit": None if e.exit is None else {"kind": e.exit.kind, "message": e.exit.message,
                                                           "code": e.exit.code, "signal": e.exit.signal}}
                     for e in s.episodes],
        "checks": dict(s.checks), "warnings": s.warnings,
        "memory_limit_mb": s.memory_limit_mb, "peak_rss_mb": round(s.peak_rss_mb, 1),
        "agent_stats": s.agent_stats,
    }


def error_log(exc: BaseException) -> Path | None:
    """Write ``exc``'s traceback (and the command line) to a new log file; its path, or None if none could be
    written."""
    import os
    import sys
    import tempfile
    import time
    import traceback

    text = (f"playtester {' '.join(sys.argv[1:])}\n{time.strftime('%Y-%m-%d %H:%M:%S')}\n\n"
            + "".join(traceback.format_exception(exc)))
    for folder in (os.environ.get("PLAYTESTER_LOG_DIR"), tempfile.gettempdir()):
        if not folder:
            continue
        try:
            os.makedirs(folder, exist_ok=True)
            fd, path = tempfile.mkstemp(prefix=f"playtester-error-{time.strftime('%Y%m%d-%H%M%S')}-",
                                        suffix=".log", dir=folder)
            with os.fdopen(fd, "w") as f:
                f.write(text)
            return Path(path)
        except OSError:
            continue
    return None


def main() -> None:
    """The ``playtester`` command: a stopped run (SIGTERM, SIGINT, SIGHUP) leaves no process behind, and every
    way out has its exit code (the module's docstring): an error playtester did not expect is exit 3 with a
    one-line message and a log file holding its traceback, never a traceback taken for exit 1 ("bugs")."""
    import sys

    from playtester.drive import lifetime

    lifetime.install_signal_handlers()
    try:
        app()
    except lifetime.Interrupted as e:
        lifetime.kill_all()
        err_console.print(f"[bold red]stopped by {e}:[/] every worker process was ended; what was found before is "
                          "in the store (an explore campaign continues with --resume)", highlight=False)
        sys.exit(128 + e.signum)
    except PlaytesterError as e:  # raised outside a command's own handler: the same line and code as inside one
        try:
            _fail(e)
        except typer.Exit as done:
            sys.exit(done.exit_code)
    except Exception as e:  # noqa: BLE001 - the contract: an unexpected failure is exit 3, not a traceback
        lifetime.kill_all()
        log = error_log(e)
        where = f"the traceback is in {log}" if log else "no log file could be written"
        err_console.print(f"[bold red]playtester failed:[/] {escape(f'{type(e).__name__}: {e}')} ({where}; "
                          "please report it with that file). What a campaign found before is kept in its store.",
                          highlight=False)
        sys.exit(3)


if __name__ == "__main__":
    main()
