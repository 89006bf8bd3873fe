"""Bundled benchmark games: real pygame games with injected, documented bugs.

Each is playable by a person (``python -m playtester.games.NAME``) and lists its injected bugs in its
docstring and in ``INJECTED_BUGS`` so benchmarks can score recall.
"""
