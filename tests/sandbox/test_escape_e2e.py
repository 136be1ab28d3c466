"""Harmless escape probes, run for real by the real `asi-agent run` with the scripted model, in yolo.

Each probe must fail inside the sandbox and succeed with `--no-sandbox`, so the test shows that the
sandbox is what stops it (not the policy, not the machine). The probes only touch the test's own
folders, a TCP server the test starts, and a `sleep` with a unique argument.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sandbox_helpers import Probe, Ran, sleeps

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif(
    (why := unavailable(find_bwrap())) is not None, reason=f"no sandbox on this machine: {why}"
)


@pytest.fixture
def probe(tmp_path: Path) -> Probe:
    return Probe(tmp_path)


def _both(probe: Probe, command: str) -> tuple[Ran, Ran]:
    return probe.run(command), probe.run(command, "--no-sandbox")


def test_the_first_stderr_line_and_the_result_say_which_sandbox_is_in_force(probe: Probe) -> None:
    (inside, _, err_in), (outside, _, err_out) = _both(probe, "true")
    assert err_in.splitlines()[0] == (
        "asi-agent: sandbox: bubblewrap (writes: project, private /tmp; read-only: git config and hooks, "
        "agent settings; no network; hidden: secrets, secret variables, host sockets)"
    )
    assert inside["sandbox"] == "bubblewrap"
    assert err_out.splitlines()[0].startswith("asi-agent: no sandbox (--no-sandbox)")
    assert outside["sandbox"] is None


def test_a_write_outside_the_project_fails_inside(probe: Probe) -> None:
    marker = probe.outside / "marker"
    (_, seen, _), _ = _both(probe, f"echo escaped > {marker}")
    assert "Read-only file system" in seen and "commands run in a sandbox" in seen  # the model is told why
    assert marker.read_text(encoding="utf-8") == "escaped\n"  # written by the --no-sandbox run only


def test_a_write_through_a_symlink_to_outside_fails_inside(probe: Probe) -> None:
    inside, _ = _both(probe, "echo escaped > link/marker")
    assert "Read-only file system" in inside[1]
    assert (probe.outside / "marker").read_text(encoding="utf-8") == "escaped\n"


def test_a_planted_key_under_home_cannot_be_read_inside(probe: Probe) -> None:
    (_, inside, _), (_, outside, _) = _both(probe, "cat ~/.ssh/id_rsa; echo end")
    assert "FAKE-PRIVATE-KEY" not in inside and "No such file" in inside
    assert "FAKE-PRIVATE-KEY-FOR-A-TEST" in outside


def test_a_tcp_server_on_the_loopback_outside_cannot_be_reached_inside(probe: Probe, server: int) -> None:
    code = f"import socket; print(socket.create_connection(('127.0.0.1', {server}), 5).recv(9))"
    client = f'{sys.executable} -c "{code}"'
    (_, inside, _), (_, outside, _) = _both(probe, client)
    assert "b'hello\\n'" not in inside and "Connection refused" in inside
    assert "b'hello\\n'" in outside


def test_a_name_cannot_be_resolved_inside(probe: Probe) -> None:
    if subprocess.run(["getent", "hosts", "pypi.org"], capture_output=True, check=False).returncode != 0:
        pytest.skip("this machine resolves no names even outside the sandbox: the probe would prove nothing")
    lookup = "getent hosts pypi.org && echo resolved || echo unresolved"
    (_, inside, _), (_, outside, _) = _both(probe, lookup)
    assert "unresolved" in inside
    assert "resolved" in outside.replace("unresolved", "")


def test_a_process_left_behind_does_not_outlive_the_call(probe: Probe) -> None:
    tag = f"{os.getpid() % 1000}.{int(time.time()) % 1000:03d}"  # a sleep only this test starts

    detach = f"setsid sleep {tag} > /dev/null 2>&1 < /dev/null & sleep 0.5"  # gone from the command's group
    probe.run(detach)
    time.sleep(0.5)
    assert sleeps(tag) == []
    probe.run(detach, "--no-sandbox")
    time.sleep(0.5)
    left = sleeps(tag)
    try:
        assert left, "without the sandbox the detached sleep survives: the probe is real"
    finally:
        for pid in left:
            os.kill(pid, 9)
