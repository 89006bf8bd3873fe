"""Vision: detectors trained on game frames labelled automatically from the probe's entities."""
