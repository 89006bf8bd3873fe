"""``playtester plan ...``: run, validate, list actors, record and write plans from text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from playtester.console import fail as _fail  # one error printer for every command
from playtester.errors import PlaytesterError, UsageError

plan_app = typer.Typer(no_args_is_help=True, add_completion=False,
                       help="Explicit plans: functional tests written as where to go and what to do there.")
console = Console(soft_wrap=True, highlight=False)
err_console = Console(stderr=True, soft_wrap=True, highlight=False)




def _game_args(items: list[str]) -> dict[str, Any]:
    from playtester.drive.spec import parse_game_args

    return parse_game_args(items)


def _spec(game: str, game_arg: list[str]) -> Any:
    from playtester.drive.spec import resolve

    spec = resolve(game)
    if game_arg:
        spec = spec.with_config(game_args=spec.config.game_args | _game_args(game_arg))
    return spec


def _line(text: str) -> None:
    style = "bold green" if text.startswith("PASSED") else "bold red" if text.startswith("FAILED") else None
    if "[FAIL]" in text:
        style = "red"
    console.print(text, style=style, markup=False)


@plan_app.command("run")
def run(
    plans: list[Path] = typer.Argument(..., help="plan files (*.plan.yaml)"),
    game: str | None = typer.Option(None, help="game spec (default: each plan's 'game')"),
    navigation: str | None = typer.Option(None, help="teleport, path or learned (default: each plan's)"),
    seed: int | None = typer.Option(None, help="episode seed (default: each plan's)"),
    game_arg: list[str] = typer.Option([], help="game entry-point argument, name=value (repeatable)"),
    junit: Path | None = typer.Option(None, help="write JUnit XML here"),
    out: Path | None = typer.Option(Path("runs/plans"), help="store failed runs here (DIR/bugs/N)"),
    policy: Path | None = typer.Option(None, help="weights of the learned navigation policy"),
) -> None:
    """Run plans like tests: print each node, rule and validation; exit 0 when all pass, 1 otherwise."""
    from playtester.plans.runner import run_plans

    try:
        if navigation is not None and navigation not in ("teleport", "path", "learned"):
            raise UsageError(f"--navigation {navigation!r}: use teleport, path or learned")
        summary = run_plans(plans, game=game, navigation=navigation, seed=seed, game_args=_game_args(game_arg),
                            junit=junit, out=out, log=_line, learned_policy=str(policy) if policy else None)
    except PlaytesterError as e:
        _fail(e)
        return
    passed = sum(1 for _, r in summary.runs if r.ok)
    console.print(f"{passed}/{len(summary.runs)} plans passed" + (f"; JUnit: {summary.junit}" if summary.junit else ""))
    raise typer.Exit(0 if summary.ok else 1)


@plan_app.command("validate")
def validate(plan: Path = typer.Argument(..., help="a plan file"),
             game: str | None = typer.Option(None, help="also check actions against this game's plan config")) -> None:
    """Check a plan file: schema, fields, and (with its game) that its actions exist."""
    from playtester.plans.runner import plan_spec
    from playtester.plans.schema import check_plan_against, config_for, load_plan

    try:
        p = load_plan(plan)
        where = ""
        if game or p.game:
            spec = plan_spec(p, game)
            cfg = config_for(spec, p)
            check_plan_against(p, cfg)
            where = f" (actions checked against {cfg.source})"
    except PlaytesterError as e:
        _fail(e)
        return
    console.print(f"{plan}: ok: plan '{p.name}', {len(p.nodes)} nodes, {len(p.rules)} rules{where}")


@plan_app.command("actors")
def actors(game: str = typer.Argument(..., help="game spec"),
           game_arg: list[str] = typer.Option([], help="game entry-point argument, name=value"),
           seed: int = typer.Option(0, help="episode seed")) -> None:
    """List what a plan for GAME may name: its actors (kinds and ids), actions, validations and hooks."""
    from playtester.drive.worker import Worker
    from playtester.plans.agent import HOOKS, control_space
    from playtester.plans.schema import config_for

    try:
        spec = _spec(game, game_arg)
        cfg = config_for(spec)
        with Worker(spec, control_space(cfg), capture=None) as w:
            obs = w.reset(seed=seed)
            hooks = w.call(HOOKS.replace("call_hook", "hook_names"))
    except PlaytesterError as e:
        _fail(e)
        return
    kinds: dict[str, list[Any]] = {}
    for e in obs.entities.values():
        kinds.setdefault(e.kind, []).append(e)
    console.print(f"[bold]actors of {spec.text}[/] (at the start of an episode; a kind targets the nearest one)",
                  markup=True)
    for kind in sorted(kinds):
        items = ", ".join(f"{e.id} ({e.pos[0]:g},{e.pos[1]:g})" if e.pos else e.id for e in kinds[kind][:8])
        more = f" and {len(kinds[kind]) - 8} more" if len(kinds[kind]) > 8 else ""
        desc = cfg.actor_descriptions.get(kind)
        console.print(f"  {kind}: {items}{more}" + (f"  -- {desc}" if desc else ""))
    console.print("[bold]actions[/] (node and rule 'action:')", markup=True)
    for name in cfg.gameplay_actions:
        c = cfg.controls[name]
        console.print(f"  {name}: keys {'+'.join(c.keys) or '-'}" + (f"  -- {c.description}" if c.description else ""))
    console.print(f"  moves: {', '.join(cfg.moves)}; idle: {cfg.idle}; player actor: {cfg.player}")
    console.print("[bold]validations[/]", markup=True)
    for v in cfg.validations:
        bound = f"event {v.event!r} within {v.timeout_steps} steps" if v.event else f"after {v.after_steps} steps"
        console.print(f"  {v.action}" + (f" on {v.target}" if v.target else "") + f": {v.label()} ({bound}"
                      + (f"; check {v.check}" if v.check else "") + ")")
    console.print(f"[bold]hooks[/]: {', '.join(hooks) or 'none'} (teleport needs 'teleport', path needs 'walkable')",
                  markup=True)


@plan_app.command("record")
def record(game: str = typer.Argument(..., help="game spec"),
           trace: Path | None = typer.Option(None, help="a stored trace: trace.json or DIR/bugs/N"),
           play: bool = typer.Option(False, "--play", help="play the game in a window; close it to stop"),
           out: Path = typer.Option(Path("recorded.plan.yaml"), "--out", "-o", help="plan file to write"),
           every: int = typer.Option(8, min=1, help="a position node every N steps"),
           name: str = typer.Option("recorded session", help="the plan's name"),
           game_arg: list[str] = typer.Option([], help="game entry-point argument, name=value")) -> None:
    """Record a session as a plan: periodic positions plus every gameplay action (with its actor)."""
    from playtester.plans.recorder import record_play, record_trace
    from playtester.plans.schema import dump_plan

    try:
        spec = _spec(game, game_arg)
        if play == (trace is not None):
            raise UsageError("give either --trace FILE (a stored trace) or --play (play in a window)")
        if trace is not None:
            plan = record_trace(spec, trace, every=every, name=name)
        else:
            plan = record_play(spec, every=every, name=name)
        out.write_text(dump_plan(plan), encoding="utf-8")
    except PlaytesterError as e:
        _fail(e)
        return
    acts = sum(1 for n in plan.nodes if n.action)
    console.print(f"wrote {out}: {len(plan.nodes)} nodes ({acts} with an action); run it with "
                  f"'playtester plan run {out}'")


@plan_app.command("from-text")
def from_text(game: str = typer.Argument(..., help="game spec"),
              text: str = typer.Argument(..., help='the steps, e.g. "Activate the switch. Jump over the ledge."'),
              out: Path | None = typer.Option(None, "--out", "-o", help="plan file to write (default: print it)"),
              embeddings: bool = typer.Option(True, help="use the sentence-embedding model when installed"),
              name: str = typer.Option("from text", help="the plan's name"),
              game_arg: list[str] = typer.Option([], help="game entry-point argument, name=value"),
              vocabulary: Path | None = typer.Option(
                  None, help="a YAML file of the game's own words (word: action or actor kind), beside the plan "
                             "config's vocabulary"),
              learn: bool = typer.Option(False, help="ask what each word the matcher could not place names, add the "
                                                     "answers to --vocabulary (or plan-vocabulary.yaml) and convert "
                                                     "again")) -> None:
    """Turn written test steps into a plan (sentences -> nodes and rules -> actions and actors)."""
    from playtester.plans.schema import config_for, dump_plan
    from playtester.plans.text import TextToPlan, load_vocabulary, save_vocabulary

    try:
        spec = _spec(game, game_arg)
        cfg = config_for(spec)
        if learn and vocabulary is None:
            vocabulary = Path("plan-vocabulary.yaml")
        if vocabulary is not None and not learn and not vocabulary.exists():
            raise UsageError(f"--vocabulary {vocabulary}: no such file (write one, 'word: action or kind' a line, or "
                             f"let --learn write it)")
        taught = load_vocabulary(vocabulary, cfg.vocabulary_names) if vocabulary and vocabulary.exists() else {}
        t2p = TextToPlan.for_game(spec, cfg, use_embeddings=embeddings, vocabulary=taught)
        result = t2p.convert(text, name=name)
        if learn and vocabulary is not None:
            new = _ask_words(result.steps, cfg.vocabulary_names, taught)
            if new:
                taught.update(new)
                save_vocabulary(vocabulary, taught)
                console.print(f"taught {len(new)} word(s); wrote {vocabulary}")
                t2p = TextToPlan.for_game(spec, cfg, use_embeddings=embeddings, vocabulary=taught)
                result = t2p.convert(text, name=name)
    except PlaytesterError as e:
        _fail(e)
        return
    console.print(f"[dim]matcher: {t2p.matcher_name}[/]", markup=True)
    if t2p.warning:
        console.print(f"note: {t2p.warning}", style="yellow", markup=False)
    for s in result.steps:
        console.print(f"  {s.describe()}")
    if result.ambiguous:
        console.print(f"[bold red]{len(result.ambiguous)} sentence(s) are ambiguous or not understood;[/] "
                      "rephrase them (suggestions above) or edit the plan by hand", markup=True)
    if result.plan is None:
        raise typer.Exit(1)
    text_out = dump_plan(result.plan)
    if out:
        out.write_text(text_out, encoding="utf-8")
        console.print(f"wrote {out}")
    else:
        console.print(text_out, markup=False)
    raise typer.Exit(1 if result.ambiguous else 0)


def _ask_words(steps: list, names: list[str], taught: dict[str, str]) -> dict[str, str]:
    """Ask, once per word, what each word a rejected step could not place names (Enter: skip it)."""
    new: dict[str, str] = {}
    for s in steps:
        if s.kind != "rejected" or s.unknown is None:
            continue
        word = s.unknown[0].lower()
        if word in taught or word in new:
            continue
        console.print(f"  {s.sentence!r}: what does '{word}' name in this game? "
                      f"({', '.join(names)}; Enter: nothing, skip)", markup=False)
        while True:
            try:
                answer = typer.prompt("  ", default="", show_default=False).strip()
            except typer.Abort:  # no more input (Ctrl-D, a closed pipe): keep what was answered (typer 0.29's own
                # Abort, as it no longer needs click; in older typer, click's, which typer.Abort names)
                return new
            if not answer or answer in names:
                break
            console.print(f"  '{answer}' is none of: {', '.join(names)}", style="red", markup=False)
        if answer:
            new[word] = answer
    return new


@plan_app.command("train")
def train(out: Path = typer.Option(..., "--out", "-o", help="where to write the policy weights (.pt)"),
          steps: int = typer.Option(0, help="environment steps (default: the shipped policy's)"),
          seed: int = typer.Option(0)) -> None:
    """Train the learned navigation policy (PPO on random layouts and targets; a few CPU minutes)."""
    from playtester.plans.learned import PPOConfig
    from playtester.plans.learned import train as train_policy

    cfg = PPOConfig(seed=seed)
    if steps:
        cfg.total_steps = steps
    stats = train_policy(cfg, out, log=lambda s: console.print(s, markup=False))
    console.print(f"wrote {out}: success rate {stats['success_rate']:.2f} on held-out layouts")
