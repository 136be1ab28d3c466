"""What the sandbox means for one command: whether it wants the network, and why it may have failed.

`wants_network` is a cheap reading of the command's programs (package managers installing, `git clone`,
`curl`…), used to ask before a command that will need the network runs without it. `sandbox_hints`
reads a failed command's output for the sandbox's marks ("Read-only file system", a name that does
not resolve) and says what was blocked and how to allow it, so the model (and the person) are not
left guessing.
"""

from __future__ import annotations

import re
import shlex

from asi_agent.sandbox import Sandbox

__all__ = ["sandbox_hints", "wants_network"]

_SEPARATORS = re.compile(r"\|\||&&|[;|&\n()]|\$\(|`")
_PREFIXES = {"sudo", "env", "time", "nohup", "nice", "command", "exec", "timeout", "xargs"}
_ALWAYS = {
    "curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "ping",
    "dig", "nslookup", "host", "whois", "http", "https", "aria2c", "gh", "glab",
}  # fmt: skip
_SUBCOMMANDS = {
    "git": {"clone", "fetch", "pull", "push", "ls-remote"},
    "pip": {"install", "download", "search", "index"},
    "pip3": {"install", "download", "search", "index"},
    "uv": {"add", "sync", "lock", "tool"},
    "poetry": {"install", "add", "update", "lock"},
    "npm": {"install", "i", "ci", "add", "update", "publish", "view", "outdated", "audit"},
    "pnpm": {"install", "i", "add", "update", "dlx"},
    "yarn": {"install", "add", "upgrade", "dlx"},
    "bun": {"install", "add", "x"},
    "cargo": {"fetch", "install", "update", "add", "publish", "search"},
    "go": {"get", "install", "mod"},
    "docker": {"pull", "push", "login", "build", "run"},
    "podman": {"pull", "push", "login", "build", "run"},
    "apt": {"install", "update", "upgrade", "download"},
    "apt-get": {"install", "update", "upgrade", "download"},
    "brew": {"install", "update", "upgrade"},
    "gem": {"install", "update"},
    "conda": {"install", "create", "update"},
}
# "busy": a command replaced a protected file (git writes its config so)
_READ_ONLY = ("Read-only file system", "Permission denied", "Device or resource busy")
_NO_NETWORK = (
    "Could not resolve host", "Temporary failure in name resolution", "Network is unreachable",
    "Name or service not known", "nodename nor servname", "getaddrinfo",
    "Failed to establish a new connection", "ENOTFOUND", "EAI_AGAIN", "Connection refused",
    "unable to access", "No route to host",
)  # fmt: skip


def wants_network(command: str) -> bool:
    """Whether one of the command's programs will reach the network (a guess from their names)."""
    for part in _SEPARATORS.split(command):
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            words = part.split()
        while words and (("=" in words[0] and not words[0].startswith("=")) or words[0] in _PREFIXES):
            words = words[1:]
        if not words or "--no-index" in words or "--offline" in words:
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program in ("python", "python3") and words[1:3] == ["-m", "pip"]:
            program, words = "pip", words[2:]
        if program in _ALWAYS:
            return True
        subcommands = _SUBCOMMANDS.get(program)
        rest = [word for word in words[1:] if not word.startswith("-")]
        if subcommands and rest and ("*" in subcommands or rest[0] in subcommands):
            return True
    return False


def sandbox_hints(output: str, sandbox: Sandbox) -> list[str]:
    """Notes for a failed command whose output shows the sandbox stopped it."""
    notes = []
    if any(mark in output for mark in _READ_ONLY):
        notes.append(
            "note: commands run in a sandbox that lets them write only in the project and their "
            "private /tmp (not in .asi/, git's config and hooks, or the settings of agents and editors); "
            "a write elsewhere fails with 'Read-only file system'. The person can add folders with "
            "`writable` (and allow a protected project path with `unprotect`) in the [sandbox] section "
            "of the configuration"
        )
    if not sandbox.network and any(mark in output for mark in _NO_NETWORK):
        notes.append(
            "note: commands run in a sandbox without network; if this command needs it, the person can "
            "allow it (--allow-network, or `network = true` in the policy or the [sandbox] configuration)"
        )
    return notes
