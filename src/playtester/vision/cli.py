"""``playtester vision ...``: train an object detector on a game's frames labelled from its probe, and
measure its AP per kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from playtester.console import fail as _fail  # one error printer for every command
from playtester.errors import PlaytesterError, UsageError

vision_app = typer.Typer(no_args_is_help=True, add_completion=False,
                         help="Object detectors trained on frames labelled from the probe's entities.")
console = Console(soft_wrap=True, highlight=False)


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    if not kinds:
        raise UsageError("--kinds: name at least one entity kind, comma-separated")
    return kinds


def ap_table(title: str, ap: dict[str, float], counts: dict[str, int] | None = None) -> Table:
    table = Table(title=title)
    table.add_column("kind")
    table.add_column("AP@0.5", justify="right")
    if counts is not None:
        table.add_column("test boxes", justify="right")
    for kind, value in ap.items():
        row = [kind, "-" if value != value else f"{100 * value:.1f}%"]
        if counts is not None:
            row.append(str(counts.get(kind, 0)))
        table.add_row(*row)
    values = [v for v in ap.values() if v == v]
    if values:
        table.add_row("mean", f"{100 * sum(values) / len(values):.1f}%", *([""] if counts is not None else []))
    return table


def _test_ap(model: Any, data: Any) -> dict[str, float]:
    from playtester.vision.detector import detect
    from playtester.vision.evaluate import ap_per_kind

    test = data.indices("test")
    return ap_per_kind(detect(model, data.frames[test]), [data.targets(i) for i in test], data.kinds)


@vision_app.command("train")
def train_cmd(
    game: str = typer.Argument(..., help="game spec (a bundled name or a path)"),
    kinds: str = typer.Option("rock_pillar,barrel,tire,chair", help="entity kinds to detect, comma-separated"),
    shots: int = typer.Option(2000, help="labelled shots to collect (split 70/10/20)"),
    out: Path = typer.Option(Path("runs/vision/detector.pt"), help="write the model here"),
    data: Path | None = typer.Option(None, help="the shots' .npz (default: .cache/vision/GAME...npz)"),
    epochs: int = typer.Option(10, help="training epochs"),
    seed: int = typer.Option(0, help="seed of the collection and of the training"),
    threads: int = typer.Option(2, help="CPU threads for PyTorch"),
    scenery: int = typer.Option(0, help="add this many scenery-only shots (hard negatives: nothing to detect on "
                                "them; the game needs the 'teleport' and 'walkable' hooks)"),
    miner: Path | None = typer.Option(None, help="a detector ('vision train' wrote it) that makes the scenery "
                                      "shots hard: those it fires on are always kept"),
) -> None:
    """Collect labelled shots (unless cached), train a detector, print its AP per kind on the test split."""
    try:
        from playtester.vision import dataset
        from playtester.vision.detector import TrainConfig, save, train

        wanted = _kinds(kinds)
        name = Path(game).stem
        with console.status("collecting shots") as status:
            shots_data = dataset.load_or_collect(
                game, wanted, shots, seed, path=data or dataset.cache_path(name, shots, wanted, seed),
                progress=lambda i, n: status.update(f"collecting shots: {i}/{n}"))
        if scenery:
            shots_data = _with_scenery(game, wanted, shots_data, scenery, miner,
                                       (data or dataset.cache_path(name, shots, wanted, seed)))
        counts = shots_data.counts()
        console.print(f"{len(shots_data)} shots; boxes per split: "
                      + "; ".join(f"{s} {sum(counts[s][k] for k in wanted)}" for s in counts))
        result = train(shots_data, TrainConfig(epochs=epochs, seed=seed, threads=threads), log=console.print)
        ap = _test_ap(result.model, shots_data)
        save(result, out, test_ap=ap, game=game)
        console.print(ap_table(f"{game}: AP per kind on the test split (best epoch {result.epoch + 1}, "
                               f"{result.seconds:.0f} s of training)", ap, counts["test"]))
        console.print(f"model written to {out}")
    except PlaytesterError as e:
        _fail(e)


@vision_app.command("evaluate")
def evaluate_cmd(
    model: Path = typer.Argument(..., help="a model written by 'vision train'"),
    data: Path | None = typer.Option(None, help="the shots' .npz (default: the game's cached shots)"),
    shots: int = typer.Option(2000, help="shots of the default cached set"),
    seed: int = typer.Option(0, help="seed of the default cached set"),
) -> None:
    """AP per kind of a trained detector on the test split of labelled shots."""
    try:
        if not model.exists():
            raise UsageError(f"no model file {model}")
        from playtester.vision import dataset
        from playtester.vision.detector import load

        net, meta = load(model)
        kinds = tuple(meta["kinds"])
        if data is None:
            game = str(meta.get("game", "park"))
            shots_data = dataset.load_or_collect(game, kinds, shots, seed,
                                                 path=dataset.cache_path(Path(game).stem, shots, kinds, seed))
        else:
            shots_data = dataset.Shots.load(data)
        if shots_data.kinds != kinds:
            raise UsageError(f"the shots are labelled with {list(shots_data.kinds)}, the model detects {list(kinds)}")
        ap = _test_ap(net, shots_data)
        console.print(ap_table(f"{model}: AP per kind on the test split", ap, shots_data.counts()["test"]))
    except PlaytesterError as e:
        _fail(e)


@vision_app.command("verdict")
def verdict_cmd(
    game: str = typer.Argument(..., help="game spec (a bundled name or a path)"),
    detector: Path = typer.Option(Path("runs/vision/detector.pt"), help="a detector written by 'vision train'"),
    out: Path | None = typer.Option(None, help="write the model bundle here (default: .cache/vision/GAME-texture.pt, "
                                    "what the texture oracle of the bundled park reads)"),
    crops: int = typer.Option(4000, help="labelled crops to collect (split 70/10/20 by object)"),
    epochs: int = typer.Option(12, help="training epochs"),
    views: int = typer.Option(300, help="face views of the held-out objects judged end to end (detector + verdict)"),
    seed: int = typer.Option(0, help="seed of the collection and of the training"),
    threads: int = typer.Option(1, help="CPU threads for PyTorch"),
    crop_shape: str = typer.Option("box", help="how a box becomes the classifier's square crop: box (resized, the "
                                   "shipped bundle's), inner (the largest square inside it) or outer (the smallest "
                                   "square round it); inner and outer keep the frame's aspect ratio"),
    stretch_aug: float = typer.Option(0.0, help="share of the normal training crops replaced by synthetic stretched "
                                      "ones (the box's texture stretched 2.5-3.5x along the width), so every kind "
                                      "gets stretched examples; 0: none (the shipped bundle's training)"),
) -> None:
    """Train the object-test verdict classifier (normal / lowres / stretched) on crops labelled from the probe,
    measure it on held-out objects, and bundle it with the detector for the texture oracle."""
    try:
        if not detector.exists():
            raise UsageError(f"no detector at {detector}; train one with 'playtester vision train {game} --out "
                             f"{detector}'")
        from playtester.vision import dataset, verdict

        if crop_shape not in verdict.CROP_SHAPES:
            raise UsageError(f"--crop-shape {crop_shape}: one of {', '.join(verdict.CROP_SHAPES)}")
        if not 0.0 <= stretch_aug <= 1.0:
            raise UsageError(f"--stretch-aug {stretch_aug}: a share of the normal crops, from 0 to 1")
        name = Path(game).stem
        _, meta = _detector_meta(detector)
        kinds = tuple(meta["kinds"])
        with console.status("collecting crops") as status:
            data = verdict.load_or_collect(game, kinds, crops, seed,
                                           progress=lambda i, n: status.update(f"collecting crops: {i}/{n}"),
                                           crop_shape=crop_shape)
        counts = data.counts()
        console.print(f"{len(data)} crops; " + "; ".join(
            f"{s} {counts[s]['objects']} objects, " + ", ".join(f"{counts[s][v]} {v}" for v in verdict.VERDICTS)
            for s in counts))
        result = verdict.train(data, verdict.VerdictConfig(epochs=epochs, seed=seed, threads=threads,
                                                                   stretch_aug=stretch_aug),
                               log=console.print)
        test_acc = verdict.accuracy(result.model, data, data.indices("test"))
        path = out or dataset.CACHE_DIR / f"{name}-texture.pt"
        verdict.save_bundle(path, result, detector, game=game, test_accuracy=test_acc)
        console.print(f"crop verdicts right on the test objects (probe boxes): {100 * test_acc:.1f}%")
        if views:
            held_out = {int(i) for i in (data.object_split == dataset.SPLITS.index("test")).nonzero()[0]}
            ev = verdict.evaluate_judge(verdict.load_bundle(path), game, held_out, views, seed + 1, kinds)
            console.print(f"end to end on {ev['faces_seen']} faces seen of the test objects: detector found "
                          f"{ev['detected']}, verdicts right {100 * ev['accuracy_detected']:.1f}% of those, "
                          f"{100 * ev['accuracy']:.1f}% of all (a face missed counts as judged normal)")
        console.print(f"model bundle written to {path}")
    except PlaytesterError as e:
        _fail(e)


def _with_scenery(game: str, kinds: tuple[str, ...], shots_data: Any, n: int, miner: Path | None,
                  base: Path) -> Any:
    """The shots plus ``n`` scenery-only shots (cached beside the shots' file)."""
    from playtester.vision import dataset

    path = base.with_name(f"{base.stem}-scenery{n}.npz")
    if path.is_file():
        return dataset.Shots.load(path)
    fires = None
    if miner is not None:
        from playtester.vision.detector import detect, load

        net, _ = load(miner)

        def fires(frame: Any) -> float:
            scores = detect(net, frame[None], min_score=0.05)[0][1]
            return float(scores.max()) if len(scores) else 0.0
    with console.status("collecting scenery shots") as status:
        extra, stats = dataset.collect_scenery(game, kinds, n, seed=1, miner=fires,
                                               progress=lambda i, m: status.update(f"scenery shots: {i}/{m}"))
    console.print(f"{len(extra)} scenery shots from {stats['candidates']} candidates ({stats['mined']} the miner "
                  "fired on)")
    merged = dataset.merge(shots_data, extra)
    merged.save(path)
    return merged


def _detector_meta(path: Path) -> tuple[Any, dict[str, Any]]:
    from playtester.vision.detector import load

    return load(path)
