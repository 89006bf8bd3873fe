"""Vision: detectors trained on game frames labelled automatically from the probe's entities.

* `playtester.vision.dataset`: shots of a game (frames downscaled to the detector's input size) labelled
  with the ``screen_box`` of the probe's entities of the wanted kinds, balanced, split 70/10/20 stratified
  by kind, cached as one ``.npz`` (numpy only);
* `playtester.vision.detector`: a small CenterNet-style detector trained from scratch on the CPU (PyTorch);
* `playtester.vision.evaluate`: AP per kind at IoU 0.5 (VOC all-point interpolation, numpy only);
* `playtester.vision.cli`: ``playtester vision train GAME`` and ``playtester vision evaluate MODEL``.
"""
