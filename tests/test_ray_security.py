"""A local Ray instance that playtester starts (issue 57): every port of it on 127.0.0.1, token authentication on
with this user's token in a 0600 file; a client with a wrong token is refused, one with the token joins. Real Ray,
started in a process of its own (the backend's `connect`), its listening sockets read from the kernel (psutil)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")

HOLD = r"""
import json, os, sys, psutil
from playtester.drive.ray_worker import connect
ray = connect(None)
@ray.remote
def where():
    return os.getpid()
ray.get(where.remote())  # a worker process is up too
me = psutil.Process()
listen = []
for p in [me] + me.children(recursive=True):
    try:
        listen += [[p.name(), c.laddr.ip, c.laddr.port] for c in p.net_connections(kind="inet")
                   if c.status == psutil.CONN_LISTEN]
    except psutil.Error:
        pass
print(json.dumps({"gcs": ray.get_runtime_context().gcs_address, "listen": listen}), flush=True)
sys.stdin.read()
"""

JOIN = r"""
import logging, sys, ray
ray.init(address=sys.argv[1], logging_level=logging.ERROR, log_to_driver=False)
@ray.remote
def f():
    return 42
print("JOINED", ray.get(f.remote(), timeout=60))
"""


def _outward_ips() -> set[str]:
    return {a.address for addrs in psutil.net_if_addrs().values() for a in addrs
            if a.family == socket.AF_INET and not a.address.startswith("127.")}


def _join(gcs: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", JOIN, gcs], env=env, capture_output=True, text=True, timeout=150)


@pytest.mark.timeout(420)
def test_a_local_ray_listens_on_loopback_only_and_refuses_a_client_without_the_token(tmp_path):
    pytest.importorskip("ray")
    token = tmp_path / "cfg" / "ray_auth_token"
    ray_tmp = tempfile.mkdtemp(prefix="rs", dir="/tmp")  # short: Ray's socket paths must fit in 107 bytes
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(PLAYTESTER_RAY_TOKEN_FILE=str(token), RAY_TMPDIR=ray_tmp,
               PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[1] / "src"), env.get("PYTHONPATH", "")]))
    hold = subprocess.Popen([sys.executable, "-c", HOLD], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = hold.stdout.readline()
        assert line, hold.stderr.read()[-3000:] if hold.poll() is not None else "no answer"
        seen = json.loads(line)
        gcs = seen["gcs"]
        names = {name for name, _, _ in seen["listen"]}
        assert {"gcs_server", "raylet"} <= names, seen  # the servers were found: the check below is not vacuous
        wide = [s for s in seen["listen"] if s[1] not in ("127.0.0.1", "::ffff:127.0.0.1", "::1")]
        assert not wide, f"Ray ports beyond loopback: {wide}"
        assert gcs.startswith("127.0.0.1:")
        port = int(gcs.rsplit(":", 1)[1])
        for ip in _outward_ips():  # nothing answers on this machine's other addresses
            with socket.socket() as s, pytest.raises(OSError):
                s.settimeout(3)
                s.connect((ip, port))
        assert stat.S_IMODE(token.stat().st_mode) == 0o600 and stat.S_IMODE(token.parent.stat().st_mode) == 0o700
        assert len(token.read_text()) == 64
        client = dict(env, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_AUTH_MODE="token")
        bad = _join(gcs, dict(client, RAY_AUTH_TOKEN="0" * 64))
        assert bad.returncode != 0 and "JOINED" not in bad.stdout
        assert "InvalidAuthToken" in bad.stdout + bad.stderr, (bad.stdout + bad.stderr)[-3000:]
        good = _join(gcs, dict(client, RAY_AUTH_TOKEN_PATH=str(token)))
        assert "JOINED 42" in good.stdout, (good.stdout + good.stderr)[-3000:]
    finally:
        hold.stdin.close()
        try:
            hold.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(hold.pid, 9)
        subprocess.run(["rm", "-rf", ray_tmp], check=False)
