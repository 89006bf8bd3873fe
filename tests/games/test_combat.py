"""Tests for the bundled ``combat`` benchmark game: rules, injected bugs, smoke run, driver runs."""

from __future__ import annotations

import builtins
import inspect
import math
import os
import random
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from gamekit import RecordingSink, install_sink, run_headless  # noqa: E402

from playtester import probe  # noqa: E402
from playtester.drive import InputFrame, Worker, resolve  # noqa: E402
from playtester.games import combat as cb  # noqa: E402


# --- pure rules ---------------------------------------------------------------------------------------
def test_boss_phase_thresholds() -> None:
    m = cb.BOSS_MAX_HP
    assert cb.boss_phase(m) == 1
    assert cb.boss_phase(m * 66 // 100 + 1) == 1
    assert cb.boss_phase(m * 66 // 100) == 2
    assert cb.boss_phase(m * 33 // 100 + 1) == 2
    assert cb.boss_phase(m * 33 // 100) == 3
    assert cb.boss_phase(0) == 3
    assert cb.boss_phase(50, 100) == 2
    for phase in (1, 2, 3):
        assert cb.boss_phase(cb.phase_top_hp(phase)) == phase
    with pytest.raises(ValueError):
        cb.phase_top_hp(4)


def test_damage_formula_with_buffs() -> None:
    assert cb.hero_damage(10, set()) == 10
    assert cb.hero_damage(10, {"rage"}) == 15
    assert cb.hero_damage(10, {"weakness"}) == 6
    assert cb.hero_damage(10, {"blessing"}) == 14
    assert cb.hero_damage(10, {"haste"}) == 7
    assert cb.hero_damage(10, set(), armor=4) == 6
    assert cb.hero_damage(10, set(), crit_mult=1.5) == 15
    assert cb.hero_damage(10, {"rage", "blessing"}) == 19
    assert cb.hero_damage(10, {"rage", "haste"}) == 12
    assert cb.hero_damage(10, {"haste", "blessing"}) == 11
    # Never below MIN_DAMAGE, however weak the hit.
    assert cb.hero_damage(1, {"weakness", "haste"}, armor=4) == cb.MIN_DAMAGE


def test_designed_damage_range_holds_without_the_bugs() -> None:
    lo, hi = 1, 60
    optional = ["rage", "weakness", "blessing", "haste"]
    for mask in range(16):
        buffs = {b for i, b in enumerate(optional) if mask >> i & 1}
        if {"rage", "haste", "blessing"} <= buffs:
            continue  # bug 2
        for base in (*cb.STRIKE_BASE, *cb.BOLT_BASE, *cb.CHARGE_BASE):
            for armor in cb.BOSS_ARMOR:
                for crit in (1.0, cb.CRIT_MULT):
                    assert lo <= cb.hero_damage(base, buffs, armor, crit) <= hi


def test_three_buffs_together_turn_damage_negative() -> None:
    three = {"rage", "haste", "blessing"}
    for base in (*cb.STRIKE_BASE, *cb.BOLT_BASE, *cb.CHARGE_BASE):
        for armor in cb.BOSS_ARMOR:
            assert cb.hero_damage(base, three, armor) < 0
    # Any two of the three are fine.
    for drop in three:
        assert cb.hero_damage(12, three - {drop}) > 0


def test_boss_damage_and_shield() -> None:
    assert cb.boss_damage(20, set()) == 20
    assert cb.boss_damage(20, {"shield"}) == 10
    assert cb.boss_damage(1, {"shield"}) == 1


def test_action_rate_is_zero_only_when_weakened_without_haste() -> None:
    assert cb.action_rate(set()) == 1
    assert cb.action_rate({"haste"}) == 2
    assert cb.action_rate({"haste", "weakness"}) == 1
    assert cb.action_rate({"weakness"}) == 0


def test_bolt_crit_multiplier_is_wrong_only_in_phase_three() -> None:
    assert cb.BOLT_CRIT_MULT[:2] == (cb.CRIT_MULT, cb.CRIT_MULT)
    top = cb.hero_damage(cb.BOLT_BASE[0], set(), cb.BOSS_ARMOR[2], cb.BOLT_CRIT_MULT[2])
    assert top > 60


def test_cooldown_and_mana_bookkeeping() -> None:
    hero = cb.Hero()
    assert hero.ready("bolt")
    assert hero.spend("bolt")
    assert hero.mana == cb.HERO_MAX_MANA - cb.BOLT_COST
    assert hero.cooldowns["bolt"] == cb.SKILL_BY_NAME["bolt"].cooldown
    assert not hero.spend("bolt")  # on cooldown
    for _ in range(cb.SKILL_BY_NAME["bolt"].cooldown):
        hero.tick_cooldowns()
    assert hero.ready("bolt")
    hero.mana = cb.BOLT_COST - 1
    assert not hero.spend("bolt")  # too little mana
    assert hero.mana == cb.BOLT_COST - 1
    assert hero.spend("strike") and hero.mana == cb.BOLT_COST - 1  # strike is free
    # Haste halves cooldowns; mana comes back one point every MANA_REGEN_EVERY frames.
    hero.buffs["haste"] = 100
    for _ in range(cb.SKILL_BY_NAME["strike"].cooldown // 2):
        hero.tick_cooldowns()
    assert hero.cooldowns["strike"] == 0
    mana = hero.mana
    for _ in range(cb.MANA_REGEN_EVERY * 3):
        hero.regen_mana()
    assert hero.mana == mana + 3


def test_buff_timers_expire() -> None:
    hero = cb.Hero()
    hero.add_buff("rage", 3)
    for _ in range(3):
        assert "rage" in hero.buffs
        hero.tick_buffs()
    assert "rage" not in hero.buffs
    hero.add_buff("weakness")
    hero.add_buff("blessing")  # cures weakness
    assert set(hero.buffs) == {"blessing"}


# --- injected bugs metadata ----------------------------------------------------------------------------
def test_injected_bugs_shape() -> None:
    source = inspect.getsource(cb)
    assert len(cb.INJECTED_BUGS) == 4
    assert len({bug["id"] for bug in cb.INJECTED_BUGS}) == 4
    for bug in cb.INJECTED_BUGS:
        assert set(bug) == {"id", "kind", "message", "description", "how"}
        assert all(isinstance(value, str) and value for value in bug.values())
        assert bug["id"] in cb.__doc__
        if bug["kind"] == "crash":
            assert issubclass(getattr(builtins, bug["message"]), BaseException)
        elif bug["kind"] == "assertion":
            assert f'"{bug["message"]}"' in source
    assert {bug["kind"] for bug in cb.INJECTED_BUGS} == {"crash", "assertion", "stuck", "balance"}
    from playtester.oracles import oracle_settings

    oracles = oracle_settings(resolve("combat"))
    assert "hit.damage" in oracles.balance
    assert oracles.stuck_features == ["hero_x", "hero_y", "mana"]


# --- in-process game checks ------------------------------------------------------------------------------
class _Keys:
    def __init__(self, *held: int) -> None:
        self.held = set(held)

    def __getitem__(self, key: int) -> bool:
        return key in self.held


NO_KEYS = _Keys()


@pytest.fixture
def sink(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingSink]:
    s = install_sink(monkeypatch)
    monkeypatch.setattr(probe, "_hooks", {})
    random.seed(0)
    yield s


def _run(g: cb.Combat, frames: int, keys: _Keys = NO_KEYS) -> None:
    for _ in range(frames):
        g.update(keys)
        g.report()


def test_report_features(sink: RecordingSink) -> None:
    g = cb.Combat()
    _run(g, 1)
    assert set(sink.features) == {"hero_x", "hero_y", "hero_hp", "mana", "boss_hp", "boss_phase", "distance",
                                  "buffs", "buff_mask", "score", "boss_dx", "boss_dy", "facing_x", "facing_y",
                                  "boss_windup"}
    assert sink.features["distance"] == 360.0
    f = sink.features
    assert (f["boss_dx"], f["boss_dy"]) == (round(g.boss.x - g.hero.x, 1), round(g.boss.y - g.hero.y, 1))
    assert abs(math.hypot(f["boss_dx"], f["boss_dy"]) - f["distance"]) < 0.2
    assert (f["facing_x"], f["facing_y"]) == g.hero.facing and f["boss_windup"] == 0
    assert sink.features["buff_mask"] == 0
    assert sink.checks == []


def test_strike_combo_gives_rage_and_hits(sink: RecordingSink) -> None:
    g = cb.Combat()
    g.teleport(g.boss.x - 40, g.boss.y)
    for _ in range(cb.COMBO_HITS):
        g.hero.cooldowns["strike"] = 0
        assert g.cast("strike")
    hits = sink.named("hit")
    assert len(hits) == cb.COMBO_HITS and all(1 <= h["damage"] <= 60 for h in hits)
    assert "rage" in g.hero.buffs and {"buff": "rage"} in sink.named("buff")
    g.report()
    assert sink.features["buff_mask"] == 1 << cb.BUFF_ORDER.index("rage")
    assert g.score == sum(h["damage"] for h in hits) == cb.BOSS_MAX_HP - g.boss.hp


def test_phase_one_shoves_the_hero_out_of_the_boss(sink: RecordingSink) -> None:
    g = cb.Combat()
    g.teleport(g.boss.x, g.boss.y)
    _run(g, 1)
    assert g.distance() >= cb.BOSS_RADIUS
    assert g.cast("charge")  # no crash: the distance is never 0 in phase 1


def test_phase_change_events(sink: RecordingSink) -> None:
    g = cb.Combat()
    g.boss.hp = cb.phase_top_hp(2) + 1
    g.teleport(g.boss.x - 40, g.boss.y)
    g.cast("strike")
    assert sink.named("phase") == [{"phase": 2}]
    assert g.boss.phase == 2
    assert g.debug_phase(3) == cb.phase_top_hp(3) and g.boss.phase == 3


def test_bug1_charge_on_the_boss_centre_crashes_in_phase_two(sink: RecordingSink) -> None:
    g = cb.Combat(start_phase=2)
    g.teleport(g.boss.x, g.boss.y)
    _run(g, 1)
    assert g.distance() == 0  # no shove from phase 2 on
    with pytest.raises(ZeroDivisionError):
        g.update(_Keys(pygame.K_4))


def test_bug2_three_buffs_heal_the_boss(sink: RecordingSink) -> None:
    g = cb.Combat()
    g.boss.hp = 500
    g.teleport(g.boss.x - 40, g.boss.y)
    for name in ("rage", "haste", "blessing"):
        g.hero.add_buff(name)
    g.cast("strike")
    assert "damage turned negative" in sink.check_messages
    assert sink.named("hit")[0]["damage"] < 0
    assert g.boss.hp > 500


def test_bug3_weakened_charge_into_a_corner_never_ends(sink: RecordingSink) -> None:
    g = cb.Combat(start_phase=2)
    g.teleport(cb.HERO_MIN_X, cb.HERO_MIN_Y)
    g.boss.x, g.boss.y = 480, 300  # far beyond LOCK_RANGE
    g.hero.add_buff("weakness")
    g.hero.mana = 60
    _run(g, 1, _Keys(pygame.K_UP, pygame.K_LEFT, pygame.K_4))
    assert g.hero.charging
    frozen = (g.hero.x, g.hero.y, g.hero.mana)
    boss_positions = set()
    pressing = [_Keys(pygame.K_RIGHT), _Keys(pygame.K_DOWN, pygame.K_2), _Keys(pygame.K_1), _Keys(pygame.K_3)]
    for i in range(600):
        _run(g, 1, pressing[i % len(pressing)])
        assert (g.hero.x, g.hero.y, g.hero.mana) == frozen
        boss_positions.add((g.boss.x, g.boss.y))
    assert g.hero.charging and "weakness" not in g.hero.buffs  # the debuff ran out, the charge did not
    assert len(boss_positions) > 1 and g.hero.alive


def test_charge_into_a_corner_ends_without_weakness(sink: RecordingSink) -> None:
    g = cb.Combat(start_phase=2)
    g.teleport(cb.HERO_MIN_X, cb.HERO_MIN_Y)
    g.boss.x, g.boss.y = 480, 300
    _run(g, 1, _Keys(pygame.K_UP, pygame.K_LEFT, pygame.K_4))
    assert g.hero.charging
    _run(g, cb.CHARGE_FRAMES)
    assert not g.hero.charging
    # A weakened charge that bumps a plain wall ends too.
    g.hero.cooldowns["charge"] = 0
    g.teleport(300, cb.HERO_MIN_Y)
    g.hero.add_buff("weakness")
    _run(g, 1, _Keys(pygame.K_UP, pygame.K_4))
    _run(g, 2)
    assert not g.hero.charging


def test_bug4_bolt_crit_in_phase_three_is_off_balance(sink: RecordingSink) -> None:
    g = cb.Combat(start_phase=3)
    damages = []
    for seed in range(200):
        random.seed(seed)
        g.hero.mana, g.hero.cooldowns["bolt"] = cb.HERO_MAX_MANA, 0
        g.teleport(g.boss.x - 100, g.boss.y)
        g.boss.hp = cb.phase_top_hp(3)
        g.cast("bolt")
        _run(g, 12)
        damages += [h["damage"] for h in sink.named("hit")]
        sink.events.clear()
    assert damages and max(damages) > 60
    assert min(damages) >= 1
    # The same bolts in phase 2 stay within the designed range.
    g2 = cb.Combat(start_phase=2)
    for seed in range(200):
        random.seed(seed)
        g2.hero.mana, g2.hero.cooldowns["bolt"] = cb.HERO_MAX_MANA, 0
        g2.teleport(g2.boss.x - 100, g2.boss.y)
        g2.boss.hp = cb.phase_top_hp(2)
        g2.cast("bolt")
        _run(g2, 12)
    assert all(1 <= h["damage"] <= 60 for h in sink.named("hit"))


def _policy_stand_and_strike(g: cb.Combat) -> _Keys:
    if g.distance() > cb.STRIKE_RANGE - 8:
        return _Keys(pygame.K_RIGHT if g.boss.x > g.hero.x else pygame.K_LEFT, pygame.K_1)
    return _Keys(pygame.K_1)


def test_standing_and_striking_loses(sink: RecordingSink) -> None:
    for seed in range(3):
        random.seed(seed)
        g = cb.Combat()
        for _ in range(5000):
            g.update(_policy_stand_and_strike(g))
            if g.over:
                break
        assert g.lost and not g.won
        assert {"phase": 3} not in sink.named("phase")


def test_draw_runs_headless(sink: RecordingSink) -> None:
    pygame.init()
    try:
        screen = pygame.display.set_mode((cb.SCREEN_W, cb.SCREEN_H))
        g = cb.Combat(start_phase=3)
        g.hero.add_buff("rage")
        g.hero.add_buff("burning")
        for keys in (_Keys(pygame.K_RIGHT, pygame.K_2), NO_KEYS):
            _run(g, 30, keys)
            screen.fill((0, 0, 0))
            g.draw(screen)
            # the arena, hero, boss and HUD are drawn: many colours, not a blank screen
            colours = {tuple(screen.get_at((x, y))) for x in range(0, cb.SCREEN_W, 7) for y in range(0, cb.SCREEN_H, 7)}
            assert len(colours) > 5
    finally:
        pygame.quit()


# --- smoke run in a real subprocess -------------------------------------------------------------------
def test_headless_smoke_run() -> None:
    result = run_headless("playtester.games.combat", "--frames", "300", "--fps", "0")
    assert result.returncode == 0, result.stderr


# --- through playtester's driver ----------------------------------------------------------------------
@pytest.fixture
def worker() -> Iterator[Worker]:
    w = Worker(resolve("combat"), capture=None)
    yield w
    w.close()


def test_driver_move_and_skill(worker: Worker) -> None:
    obs = worker.reset(seed=0)
    x0 = obs.features["hero_x"]
    obs = worker.step(InputFrame.make(keys=["RIGHT"]), frames=8)
    assert obs.features["hero_x"] == x0 + 8 * cb.HERO_SPEED
    mana = obs.features["mana"]
    obs = worker.step(InputFrame.make(keys=["2"]), frames=8)
    assert [e.data for e in obs.events if e.name == "skill"] == [{"skill": "bolt"}]
    assert obs.features["mana"] < mana
    obs = worker.step(InputFrame.make(keys=[]), frames=30)
    assert any(e.name == "hit" and e.data["skill"] == "bolt" for e in obs.events)
    assert obs.features["score"] > 0 and obs.features["boss_hp"] < cb.BOSS_MAX_HP
    assert set(obs.entities) >= {"hero", "boss"}
    assert not obs.checks


def test_driver_reaches_the_zero_distance_crash_in_phase_two() -> None:
    spec = resolve("combat").with_config(game_args={"start_phase": 2})
    w = Worker(spec, capture=None)
    try:
        obs = w.reset(seed=0)
        for _ in range(400):
            f = obs.features
            if f["distance"] == 0:
                break
            hero, boss = obs.entities["hero"].pos, obs.entities["boss"].pos
            dx, dy = boss[0] - hero[0], boss[1] - hero[1]
            if abs(dx) >= abs(dy):
                key = "RIGHT" if dx > 0 else "LEFT"
            else:
                key = "DOWN" if dy > 0 else "UP"
            obs = w.step(InputFrame.make(keys=[key]), frames=1)
            assert not obs.done
        assert obs.features["distance"] == 0
        obs = w.step(InputFrame.make(keys=["4"]), frames=2)
        assert obs.done and obs.exit is not None
        assert obs.exit.kind == "exception" and obs.exit.exc_type == "ZeroDivisionError"
        assert any(fr.function == "start_charge" for fr in obs.exit.frames)
    finally:
        w.close()
