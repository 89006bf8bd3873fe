"""The probe: free outside playtester, collected inside."""

from __future__ import annotations

import subprocess
import sys

from conftest import fixture_spec

from playtester import probe
from playtester.drive.inputs import InputFrame


def test_probe_imports_without_dependencies_and_does_nothing_outside_a_worker():
    code = ("import sys; import playtester.probe as p; p.event('x', a=1); p.observe(hp=1); "
            "assert p.check(False, 'no') is False; p.entity('e', 'enemy', (1, 2)); "
            "heavy = {'pygame', 'numpy', 'pydantic', 'gymnasium'} & set(sys.modules); "
            "assert not heavy, heavy; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr
    assert probe.active() is False


def test_probe_calls_arrive_in_observations(worker_for):
    w = worker_for(fixture_spec("no_input"))
    obs = w.reset(seed=0)
    assert obs.features == {"frame": 1.0}
    obs = w.step(InputFrame(), frames=3)
    assert obs.features == {"frame": 4.0} and obs.frame_no == 4
