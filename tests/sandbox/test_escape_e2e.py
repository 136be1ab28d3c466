"""Harmless escape probes, run for real by the real `asi-agent run` with the scripted model, in yolo.

Each probe must fail inside the sandbox and succeed with `--no-sandbox`, so the test shows that the
sandbox is what stops it (not the policy, not the machine). The probes only touch the test's own
folders, a TCP server the test starts, and a `sleep` with a unique argument.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env, tool_results
from sandbox_helpers import sleeps

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif(
    (why := unavailable(find_bwrap())) is not None, reason=f"no sandbox on this machine: {why}"
)


class Probe:
    """A project, a home with a planted key, a temp folder and an outside folder, all the test's own."""

    def __init__(self, base: Path) -> None:
        self.base = base
        names = ("project", "home", "tmp")
        self.root, self.home, self.temp = (base / name for name in names)
        # Under the home folder: visible (read-only) inside; the rest of the host's /tmp is not seen at all.
        self.outside = self.home / "outside"
        for folder in (self.root, self.home / ".ssh", self.temp, self.outside):
            folder.mkdir(parents=True)
        (self.home / ".ssh" / "id_rsa").write_text("FAKE-PRIVATE-KEY-FOR-A-TEST\n", encoding="utf-8")
        (self.root / "link").symlink_to(self.outside)

    def run(self, command: str, *flags: str) -> tuple[dict[str, Any], str, str]:
        """Run `command` through the agent; returns the JSON result, the tool's output and stderr."""
        script = self.base / "script.json"
        call = {"name": "run_terminal_cmd", "arguments": {"command": command}}
        replies = [{"text": "", "tool_calls": [call]}, "Done.\nAGENT_STATUS: DONE"]
        script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
        env = model_free_env()
        env.update(ASI_CONFIG_DIR=str(self.base / "config"), HOME=str(self.home), TMPDIR=str(self.temp))
        argv = ["run", "--provider", "scripted", "--model", str(script), "--yes", "--output-format", "json"]
        done = subprocess.run(
            [sys.executable, "-m", "asi_agent", *argv, *flags, "probe"],
            cwd=self.root, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.stdout.strip(), done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
        return result, "\n".join(tool_results(self.root, result["session_id"])), done.stderr



@pytest.fixture
def probe(tmp_path: Path) -> Probe:
    return Probe(tmp_path)


Ran = tuple[dict[str, Any], str, str]


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
