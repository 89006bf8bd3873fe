"""The report's position heatmap of an entity that goes far (a player falling for ever in bench/godot_games'
square_jumper: y reached 5 million) is binned to a bounded grid, not a 36 GiB array (explore exited 3)."""

from playtester.report.images import HEATMAP_MAX_CELLS, heatmap


def test_a_far_away_cell_bins_the_map_instead_of_allocating_it():
    img = heatmap({(0, 0): 3, (10, 5_460_000): 1, (894, 20): 2})
    assert img.shape[0] <= HEATMAP_MAX_CELLS * 8 and img.shape[1] <= HEATMAP_MAX_CELLS * 8


def test_a_small_map_is_unchanged():
    img = heatmap({(0, 0): 1, (2, 1): 4}, scale=1)
    assert img.shape == (2, 3, 3)
