"""State machines in one loop: ``Control.main_game_loop`` hands the events and the held keys to ``self.state``,
picked from a dict of state objects (``self.state = self.state_dict[self.state_name]``). Every state's input
handling is analysed, not only the state the game is in when the analysis runs (the menu), and each action is
valid only while its state runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_analysis import names, took_on  # tests/analysis is on sys.path (rootdir-relative import)

from playtester.analysis import analyze
from playtester.drive.inputs import InputFrame, key_code
from playtester.drive.spec import resolve
from playtester.drive.worker import Worker

GAME = Path(__file__).parents[1] / "fixtures" / "games" / "state_machine_menu" / "game.py"
RACE = {"left": "LEFT", "right": "RIGHT", "accelerate": "UP", "brake": "DOWN"}  # branch -> the key held for it
MENU, RACE_SCREEN, GAME_OVER = 0, 1, 2  # the fixture's probe feature screen
# ``self.state.get_event(e)``; ``self.state_dict[self.state_name].get_event(e)``; the loop's locals ``state``, ``states``
ENTRIES = ["main", "main_by_name", "main_local"]


def spec_for(entry: str, **cfg):
    return resolve(f"{GAME}:{entry}", frames_per_action=1, **cfg)


def taken(act) -> set[str]:
    """The branches (``took(...)``) the action's path goes through."""
    return {took_on(f, ln) for f, ln, side in act["decisions"] if side} - {None}


@pytest.fixture(scope="module", params=[*ENTRIES, "main in the race"])
def analysed(request):
    """The analysis and the spec to play it on (started in the menu). ``in the race``: analysed with the race
    running (RETURN pressed first), where the race's keys were found before too, but valid in every state."""
    entry, _, where = request.param.partition(" in the ")
    spec = spec_for(entry)
    if where:
        return spec, analyze(spec_for(entry, init=[{"keys": ["RETURN"], "frames": 1}, {"frames": 2}]))
    return spec, analyze(spec)


def test_every_state_in_the_dict_is_analysed_not_only_the_running_one(analysed):
    """The analysis runs while the menu does (its RETURN is found); the race's four arrow keys (read by
    ``Race.update(screen, keys)``) and the game-over screen's RETURN are found too, from the live dict's other
    state objects. Before: the menu's keys only."""
    _, a = analysed
    # (the file's other entry functions' loops are input loops no run reaches: named, and nothing else)
    assert a.result["loop"]["function"] in ("main_game_loop", "main_local"), a.result["loop"]
    assert all("was never reached" in w for w in a.warnings), a.warnings
    got = set().union(*(taken(x) for x in a.paths))
    assert {"start", "colour up", "colour down", "again", *RACE} <= got, names(a)
    for branch, key in RACE.items():
        acts = [x for x in a.paths if branch in taken(x)]
        assert all(key_code(key) in x["sample_inputs"].keys for x in acts), (branch, [x["name"] for x in acts])
    # the menu's RETURN alone (main_local's loop also flips the state within the frame, where ``state.done``
    # is assumed: paths through the menu's RETURN and then the race's update, holding arrows too)
    start = [x for x in a.paths if "start" in taken(x)]
    assert any(x["sample_inputs"].keys == frozenset({key_code("RETURN")}) for x in start), start


def test_each_state_s_actions_are_valid_only_while_it_runs(analysed):
    """Played with the analysed space: in the menu no race action is valid and an action for each of the menu's
    keys is; after RETURN (the race runs) an action for each arrow key is valid and no menu action is;
    performing each moves the car (the probe's car_x / car_y) its way; holding UP to the finish line leads to game over, where the race's
    actions are masked out again and game over's RETURN is valid."""
    spec, a = analysed  # the spec starts in the menu
    race = {i: taken(x) & set(RACE) for i, x in enumerate(a.paths) if taken(x) & set(RACE)}
    menu = [i for i, x in enumerate(a.paths) if taken(x) & {"start", "colour up", "colour down"}]
    again = [i for i, x in enumerate(a.paths) if "again" in taken(x)]
    assert race, names(a)
    with Worker(spec, space=a.space(paths=True), capture=None) as w:
        obs = w.reset(seed=0)
        assert obs.features.get("screen") == MENU, obs.features
        assert not any(obs.action_mask[i] for i in race), [a.paths[i]["name"] for i in race if obs.action_mask[i]]
        assert menu and again, names(a)
        for branch in ("start", "colour up", "colour down"):
            assert any(obs.action_mask[i] for i in menu if branch in taken(a.paths[i])), branch
        obs = w.step(InputFrame(keys=frozenset({key_code("RETURN")})), frames=1)
        obs = w.step(InputFrame(), frames=1)
        assert obs.features.get("screen") == RACE_SCREEN, obs.features
        assert not any(obs.action_mask[i] for i in menu + again)
        moved = {"left": ("car_x", -1), "right": ("car_x", 1), "accelerate": ("car_y", -1), "brake": ("car_y", 1)}
        for branch in ("left", "right", "brake", "accelerate"):
            valid = [i for i, bs in race.items() if branch in bs and obs.action_mask[i]]
            assert valid, f"no action taking {branch} is valid in the race"
            i = min(valid, key=lambda j: len(race[j]))  # the plainest: one key
            feature, sign = moved[branch]
            before = obs.features[feature]
            obs = w.act(i, frames=1)
            got = {e.data["branch"] for e in obs.events if e.name == "took"}
            assert branch in got, (a.paths[i]["name"], got)
            assert (obs.features[feature] - before) * sign > 0, (a.paths[i]["name"], before, obs.features)
        up = next(i for i, bs in race.items() if bs == {"accelerate"} and obs.action_mask[i])
        for _ in range(200):
            if obs.features.get("screen") == GAME_OVER:
                break
            obs = w.act(up, frames=1) if obs.action_mask[up] else w.step(InputFrame(), frames=1)
        assert obs.features.get("screen") == GAME_OVER, obs.features
        assert not any(obs.action_mask[i] for i in race), [a.paths[i]["name"] for i in race if obs.action_mask[i]]
        assert any(obs.action_mask[i] for i in again)
        obs = w.act(next(i for i in again if obs.action_mask[i]), frames=1)
        obs = w.step(InputFrame(), frames=1)
        assert obs.features.get("screen") == MENU, obs.features


def _materialized(name: str) -> tuple[dict, Path]:
    """bench/repo_games.toml's entry of the game ``name`` and its folder, materialized by bench/repo_games.py from
    a git mirror or GitHub (its files are not committed); skips, saying why, when neither can be reached."""
    import importlib.util
    import sys
    import tomllib

    root = Path(__file__).parents[2] / "bench"
    entry = next(g for g in tomllib.loads((root / "repo_games.toml").read_text())["game"] if g["name"] == name)
    before = list(sys.path)  # bench/repo_games.py puts bench/ on sys.path: taken off again for the other tests
    spec = importlib.util.spec_from_file_location("repo_games", root / "repo_games.py")
    repo_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(repo_games)
    sys.path[:] = before
    try:
        return entry, repo_games.materialize(entry)
    except repo_games.Unavailable as e:
        pytest.skip(f"repository game not materialized: {e}")


def test_a_real_state_machine_game_every_documented_control():
    """cabbages-and-kings (bench/repo_games.toml, Mekire's ``StateMachine``: ``self.state_machine.state`` picked
    from ``state_dict``, handed every event and the keys): analysed while its splash screen runs, every control its
    corpus entry documents is found (before: a, f5 and space, the splash screen's), and the play state's keys
    (attack, camp, interact) are actions of the GAME state."""
    entry, folder = _materialized("cabbages")
    a = analyze(resolve(str(folder / entry["entry"])))
    found = {k for x in a.paths for k in x["sample_inputs"].keys}
    assert {key_code(k) for k in entry["controls"]["keys"]} <= found, names(a)
    in_game = {k for x in a.paths if "state_dict['GAME']" in (x.get("p_g_text") or "")
               for k in x["sample_inputs"].keys}
    assert {key_code(k) for k in ("SPACE", "s", "LSHIFT")} <= in_game, in_game
