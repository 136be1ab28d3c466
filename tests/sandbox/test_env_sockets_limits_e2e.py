"""What a sandboxed command cannot take or exhaust: the environment's secrets, the host's unix sockets
(an ssh agent, a session bus, a runtime folder), unbounded processes, files, memory, CPU time or output,
the terminal's session, or a background life without end. Through the real `asi-agent run` (scripted
model, yolo), with fake secrets and listeners the test starts in its own folders."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sandbox_helpers import Probe, unix_server

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif((why := unavailable(find_bwrap())) is not None, reason=f"no sandbox: {why}")

SECRETS = {
    "ASI_API_KEY": "FAKE-ASI-KEY", "OPENAI_API_KEY": "FAKE-OPENAI-KEY", "GITHUB_TOKEN": "FAKE-GITHUB-TOKEN",
    "AWS_SECRET_ACCESS_KEY": "FAKE-AWS-SECRET", "DB_PASSWORD": "FAKE-DB-PASSWORD",
    "MYAPP_TOKEN": "FAKE-MYAPP", "MYAPP_AGENT_SOCK": "/FAKE-SOCK",
}  # fmt: skip


def test_commands_see_an_allow_list_of_variables_never_a_key_token_password_or_socket(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    probe.env.update(SECRETS, SSH_AUTH_SOCK=str(probe.home / "agent.sock"), MYAPP_MODE="on", LISTED="yes")
    probe.env.update(NOT_LISTED="FAKE-UNLISTED")
    probe.configure('[sandbox]\nenv = ["MYAPP_*", "LISTED"]\n')
    command = "cat /proc/self/environ | tr '\\0' '\\n'"
    (_, inside, _), (_, outside, _) = probe.run(command), probe.run(command, "--no-sandbox")
    assert "FAKE-" not in inside and "SSH_AUTH_SOCK" not in inside, inside
    assert "MYAPP_MODE=on" in inside and "LISTED=yes" in inside  # the person's names go through
    assert f"HOME={probe.home}" in inside and "PATH=" in inside and "TMPDIR=/tmp" in inside
    for value in ["FAKE-GITHUB-TOKEN", "FAKE-OPENAI-KEY", "FAKE-UNLISTED"]:
        assert value in outside  # they were there to be seen: the sandbox is what filters them


CONNECT = "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(9))"


def test_unix_sockets_of_the_host_cannot_be_reached(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    runtime, agent = probe.home / "runtime", probe.home / "ssh-agent"
    probe.env.update(XDG_RUNTIME_DIR=str(runtime), SSH_AUTH_SOCK=str(agent / "agent.sock"))
    places = [
        runtime / "bus",
        agent / "agent.sock",
        probe.home / "srv" / "docker.sock",
        probe.root / "db.sock",
    ]
    with unix_server(places[0]), unix_server(places[1]), unix_server(places[2]), unix_server(places[3]):
        (probe.root / "connect.py").write_text(CONNECT, encoding="utf-8")
        command = " ; ".join(f"{sys.executable} connect.py {place} 2>&1 | tail -1" for place in places)
        (_, inside, _), (_, outside, _) = probe.run(command), probe.run(command, "--no-sandbox")
    assert "hello" not in inside, inside
    assert outside.count("b'hello\\n'") == len(places), outside  # each listener answers outside


def test_resource_limits_hold_inside(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    limits = "processes = 64\nfile_size_mb = 1\nmemory_mb = 256\ncpu_seconds = 1\n"
    probe.configure(f"[sandbox.limits]\n{limits}")
    commands = [
        "ulimit -f; ulimit -t; ulimit -d; ulimit -u",
        "head -c 3000000 /dev/zero > big.bin; echo size $(stat -c %s big.bin)",
        f"{sys.executable} -c 'b = bytearray(600 << 20); print(\"allocated\")' 2>&1 | tail -1",
        f"{sys.executable} -c 'while True: pass'; echo status $?",
    ]
    _, outputs, _ = probe.run_all(commands)
    lines = outputs[0].split()
    assert lines[:3] == ["1024", "1", str(256 * 1024)], outputs[0]  # bash counts KiB for -f and -d
    assert lines[3] != "unlimited" and int(lines[3]) > 64
    assert "size 1048576" in outputs[1]
    assert "MemoryError" in outputs[2] and "allocated" not in outputs[2]
    assert "status 152" in outputs[3]  # 128 + SIGXCPU


def test_a_command_has_its_own_session_so_it_cannot_reach_the_terminal(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    _, seen, _ = probe.run("echo session $(cut -d' ' -f6 /proc/$$/stat)")
    words = seen.split()
    assert words[0] == "session" and words[1] != "0", seen  # led from inside, not the caller's session


def test_output_is_capped_and_a_background_process_ends_at_the_time_limit(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    probe.configure("[sandbox.limits]\noutput_mb = 1\nbackground_seconds = 1\n")
    commands = [{"command": "sleep 30", "is_background": True}, "yes; echo never", "sleep 3", "bg:status bg1"]
    _, outputs, _ = probe.run_all(commands)
    assert "started bg1" in outputs[0]
    assert "the output passed 1 MiB" in outputs[1] and "never" not in outputs[1], outputs[1][-400:]
    logs = list((probe.root / ".asi" / "outputs").glob("*.log"))
    assert logs and max(log.stat().st_size for log in logs) <= 1 << 20
    assert "stopped at its time limit" in outputs[3], outputs[3]
