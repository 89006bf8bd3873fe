"""The ``playtester`` command line. It only parses, calls, and prints.

Exit codes: 0 clean, 1 bugs found (game crashes or hangs), 2 usage or input error, 3 the tool failed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from playtester.errors import PlaytesterError, UsageError

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Automated game testing: drive games headless, explore them, catch bugs.")
console = Console()
err_console = Console(stderr=True)


def _parse_game_args(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise UsageError(f"--game-arg {item!r} must look like name=value (e.g. --game-arg size=21)")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _fail(e: PlaytesterError) -> None:
    err_console.print(f"[bold red]error:[/] {e}", highlight=False)
    raise typer.Exit(e.exit_code)


@app.command()
def games() -> None:
    """List the bundled games."""
    from playtester.drive.spec import bundled_games

    for name in bundled_games():
        console.print(name)


@app.command()
def run(
    game: str = typer.Argument(..., help="game spec: bundled name, module:function, file.py[:function], gym:ID"),
    agent: str = typer.Option("random", help="agent that picks actions"),
    steps: int = typer.Option(1000, min=1, help="total steps over all workers"),
    workers: int = typer.Option(1, min=1, help="games run in parallel, one process each"),
    seed: int = typer.Option(0, help="seed of the first episode; later episodes use seed+1, seed+2, ..."),
    actions: str = typer.Option("default", help="action space: default, blind, or manual:FILE.yaml"),
    frames_per_action: Optional[int] = typer.Option(None, min=1, help="frames each action is held"),
    max_episode_steps: Optional[int] = typer.Option(None, min=1, help="steps before an episode is truncated"),
    config: Optional[Path] = typer.Option(None, help="playtester.toml to use instead of the game's own"),
    game_arg: list[str] = typer.Option([], help="keyword argument for the game's entry point, name=value"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="also write the summary as JSON here"),
) -> None:
    """Drive a game with an agent and print what happened: steps/s, episodes, crashes, hangs."""
    from playtester.campaign import run_agent
    from playtester.drive.spec import resolve

    try:
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
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[stats]}"), TimeElapsedColumn(), console=console)
        with progress:
            task = progress.add_task(f"{agent} on {spec.name}", total=steps, stats="")

            def on_step(s: Any) -> None:
                if s.steps % 50 == 0 or s.steps >= steps:
                    progress.update(task, completed=s.steps,
                                    stats=f"{s.steps_per_s:,.0f} steps/s  episodes {len(s.episodes)}  "
                                          f"crashes {len(s.crashes)}  hangs {len(s.hangs)}")

            summary = run_agent(spec, agent=agent, steps=steps, workers=workers, seed=seed,
                                actions=None if actions == "default" else actions, on_step=on_step)
            progress.update(task, completed=summary.steps)
    except PlaytesterError as e:
        _fail(e)
        return
    _print_summary(summary)
    if json_out:
        json_out.write_text(json.dumps(_summary_json(summary), indent=2))
    raise typer.Exit(1 if summary.crashes or summary.hangs else 0)


def _print_summary(s: Any) -> None:
    table = Table(title=f"playtester run: {s.game}", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("agent / actions", f"{s.agent} / {s.actions} ({s.n_actions} actions)")
    table.add_row("steps", f"{s.steps:,} in {s.seconds:.1f} s = {s.steps_per_s:,.0f} steps/s with {s.workers} "
                  f"worker{'s' if s.workers > 1 else ''}")
    outcomes = ", ".join(f"{k} {s.count(k)}" for k in ("finished", "done", "truncated", "crash", "hang",
                                                        "no-valid-action") if s.count(k))
    table.add_row("episodes ended", f"{len(s.episodes)}" + (f" ({outcomes})" if outcomes else ""))
    table.add_row("game crashes", str(len(s.crashes)))
    table.add_row("hangs", str(len(s.hangs)))
    table.add_row("failed probe checks", f"{sum(s.checks.values())} ({len(s.checks)} distinct)")
    console.print(table)
    shown: set[str] = set()
    for e in s.crashes + s.hangs:
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
        "game": s.game, "agent": s.agent, "actions": s.actions, "n_actions": s.n_actions, "workers": s.workers,
        "steps": s.steps, "seconds": s.seconds, "steps_per_s": s.steps_per_s,
        "episodes": [{"worker": e.worker, "seed": e.seed, "steps": e.steps, "outcome": e.outcome,
                      "exit": None if e.exit is None else {"kind": e.exit.kind, "message": e.exit.message,
                                                           "code": e.exit.code, "signal": e.exit.signal}}
                     for e in s.episodes],
        "checks": dict(s.checks), "warnings": s.warnings,
    }


def main() -> None:
    app()


if __name__ == "__main__":
    main()
