"""Vision: detectors trained on game frames labelled automatically from the probe's entities.

* `playtester.vision.dataset`: shots of a game (frames downscaled to the detector's input size) labelled
  with the ``screen_box`` of the probe's entities of the wanted kinds, balanced, split 70/10/20 stratified
  by kind, cached as one ``.npz`` (numpy only);
* `playtester.vision.detector`: a small CenterNet-style detector trained from scratch on the CPU (PyTorch);
* `playtester.vision.evaluate`: AP per kind at IoU 0.5 (VOC all-point interpolation, numpy only);
* `playtester.vision.verdict`: crops of the objects judged normal / lowres / stretched (the object-test
  verdicts) and `TextureJudge`, detector + classifier on frames with no probe (PyTorch);
* `playtester.vision.cli`: ``playtester vision train GAME``, ``playtester vision evaluate MODEL`` and
  ``playtester vision verdict GAME``.

`load_texture_judge` is the ``texture`` oracle's judge loader (the oracle sits below vision in the layers): the
entry point ``texture`` of the group ``playtester.judges`` in pyproject.toml.
"""


def load_texture_judge(path: str):  # noqa: ANN202 - a TextureJudge; torch is imported only here
    """The judge of the bundle at ``path``; from then on torch runs one thread in this process. The judge runs two
    small networks on one frame at a time, where a second thread took three times the CPU for no gain in time
    (5.5 ms of CPU a frame on one thread, 16.7 on two, on this 2-core machine), and in a campaign's process it takes
    that time from the game workers (as `playtester.agents.common.setup_torch` does for the agents)."""
    import torch

    from playtester.vision.verdict import load_bundle

    torch.set_num_threads(1)
    return load_bundle(path)

