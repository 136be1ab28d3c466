"""The OS sandbox around every process the agent starts (bubblewrap on Linux).

A sandboxed command, by default:

- reads the file system, except the user's secrets (`~/.ssh`, `~/.aws`, credential files, shell histories,
  …; `[sandbox] hidden`) and asi-agent's own configuration and cache folders, all hidden behind an empty
  folder or file, and except the host's `/tmp`, which it does not see;
- writes only in the project folder and in a private temporary folder of the run, mounted as `/tmp`
  (`TMPDIR=/tmp`; `XDG_CACHE_HOME` and npm's cache point into it, so package managers cache there), plus
  `[sandbox] writable` and `[sandbox] caches` (none by default: a package cache holds code that later
  runs outside, so a command could poison it). Inside the project, `.asi/` (the runtime's journal and
  sessions), git's configuration, hooks and info, and the settings of agents, editors and hook managers
  stay read-only (`mounts.protected_paths`), and so does asi-agent's own interpreter and import path;
- sees an allow-list of environment variables (`environ`), never a key, token, password or socket;
- reaches no unix socket of the host: the session's runtime folders (`/run/user`, `$XDG_RUNTIME_DIR`),
  the ssh agent's folder and `/tmp` are replaced by empty ones, and every other socket bound on the host
  is covered;
- has no network: its own network namespace, with nothing but its own loopback (`--allow-network`,
  `network = true` in the policy or in `[sandbox]`, or a per-command approval opens it);
- cannot outlive the call nor take over the terminal: its own pid namespace and session, torn down with
  the process that started it; and runs under resource limits (`limits`).

`Sandbox.wrap` turns a command line into the one that runs it so; `sandbox_for` builds the sandbox of a
project from the configuration, and `unavailable` says why there is none where the machine has none.
"""

from __future__ import annotations

from asi_agent.sandbox.box import KIND, Sandbox, sandbox_for
from asi_agent.sandbox.limits import Limits
from asi_agent.sandbox.probe import find_bwrap, unavailable, unavailable_cached

__all__ = [
    "KIND", "Limits", "Sandbox", "find_bwrap", "sandbox_for", "unavailable", "unavailable_cached",
]  # fmt: skip
