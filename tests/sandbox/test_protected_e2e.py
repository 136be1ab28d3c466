"""What a stranger's repository cannot do from inside the sandbox to what runs later outside it: plant git
configuration or hooks, rewrite agent or editor settings, create a `.mcp.json`, touch another project under
/tmp, poison the user's caches or toolchains, read asi-agent's own configuration or more credential files,
or forge the sandbox probe's verdict. Through the real `asi-agent run` (scripted model, yolo), harmless
markers only; where it proves the probe real, the same command succeeds with `--no-sandbox`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from sandbox_helpers import Probe

import asi_agent
from asi_agent.sandbox import find_bwrap, unavailable

BWRAP = find_bwrap()
pytestmark = pytest.mark.skipif((why := unavailable(BWRAP)) is not None, reason=f"no sandbox: {why}")
HOOK = "#!/bin/sh\necho HOOK-RAN > hook-ran.txt\n"


def _git(root: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "core.hooksPath=/dev/null"]
    return subprocess.run([*command, *args], cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Probe:
    probe = Probe(tmp_path)
    _git(probe.root, "init", "-q")
    (probe.root / "app.py").write_text("print('app')\n", encoding="utf-8")
    _git(probe.root, "add", "app.py")
    _git(probe.root, "commit", "-qm", "first")
    return probe


PLANT_GIT = [
    "echo '[core]' >> .git/config; echo '  fsmonitor = echo FSMONITOR-RAN' >> .git/config",
    "mkdir -p .git/hooks && printf '#!/bin/sh\\necho HOOK-RAN\\n' > .git/hooks/pre-commit",
    "echo '*.py' >> .git/info/exclude",
]


def test_git_config_hooks_and_info_are_read_only_inside_yet_git_add_commit_and_status_work(
    repo: Probe,
) -> None:
    config = (repo.root / ".git" / "config").read_text(encoding="utf-8")
    shutil.rmtree(repo.root / ".git" / "hooks")  # no hooks folder yet: it must not be creatable either
    work = "echo more >> app.py && git add -A && git -c user.name=A -c user.email=a@example.org commit -qm in"
    _, outputs, _ = repo.run_all([*PLANT_GIT, f"{work} && git status --short && echo committed"])
    for planted in outputs[:3]:
        assert "Read-only file system" in planted, planted
    assert "committed" in outputs[3] and outputs[3].rstrip().endswith("exit code: 0"), outputs[3]
    assert (repo.root / ".git" / "config").read_text(encoding="utf-8") == config
    assert not (repo.root / ".git" / "hooks" / "pre-commit").exists()
    assert "*.py" not in (repo.root / ".git" / "info" / "exclude").read_text(encoding="utf-8")
    assert _git(repo.root, "log", "--format=%s").split() == ["in", "first"]
    repo.run_all(PLANT_GIT, "--no-sandbox")  # the same commands do plant them without the sandbox
    assert "FSMONITOR-RAN" in (repo.root / ".git" / "config").read_text(encoding="utf-8")
    assert (repo.root / ".git" / "hooks" / "pre-commit").exists()


def test_a_submodules_config_and_hooks_and_the_hooks_path_folder_are_read_only(repo: Probe) -> None:
    modules = repo.root / ".git" / "modules" / "lib"
    (modules / "hooks").mkdir(parents=True)
    (modules / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (modules / "config").write_text("[core]\n", encoding="utf-8")
    _git(repo.root, "config", "core.hooksPath", ".husky-like")
    commands = [
        "echo '  fsmonitor = echo X' >> .git/modules/lib/config",
        "echo x > .git/modules/lib/hooks/post-checkout",
        "mkdir -p .husky-like && echo x > .husky-like/pre-commit",
    ]
    _, outputs, _ = repo.run_all(commands)
    assert all("Read-only file system" in output for output in outputs), outputs
    assert (modules / "config").read_text(encoding="utf-8") == "[core]\n"
    assert not (modules / "hooks" / "post-checkout").exists()
    assert not (repo.root / ".husky-like").exists()  # the placeholder went with the command


def test_a_git_file_that_says_where_the_repository_is_cannot_be_pointed_elsewhere(repo: Probe) -> None:
    worktree = Probe(repo.base / "second")  # a linked worktree: its .git is a file
    (worktree.root / "link").unlink()
    worktree.root.rmdir()
    _git(repo.root, "worktree", "add", "-q", str(worktree.root))
    pointer = (worktree.root / ".git").read_text(encoding="utf-8")
    _, seen, _ = worktree.run("echo 'gitdir: planted' > .git; git status --short; echo end")
    assert "Read-only file system" in seen and "end" in seen
    assert (worktree.root / ".git").read_text(encoding="utf-8") == pointer


SETTINGS = {
    ".vscode/settings.json": "{}\n", ".claude/settings.json": "{}\n", ".idea/workspace.xml": "<x/>\n",
    ".husky/pre-commit": "npm test\n", "AGENTS.md": "# Rules\n", ".asi/config.toml": "",
    ".codex/config.toml": "", ".agents/skills.md": "", ".cursor/mcp.json": "{}",
}  # fmt: skip


def test_agent_editor_and_hook_manager_settings_are_read_only_and_no_mcp_json_can_be_made(
    tmp_path: Path,
) -> None:
    probe = Probe(tmp_path)
    for name, text in SETTINGS.items():
        (probe.root / name).parent.mkdir(parents=True, exist_ok=True)
        (probe.root / name).write_text(text, encoding="utf-8")
    plant = "; ".join(f"echo PLANTED >> {name}" for name in SETTINGS)
    create = "echo '{\"mcpServers\": {}}' > .mcp.json; echo '{\"tools\": []}' > moss-tools.json"
    _, outputs, _ = probe.run_all([f"{plant}; {create}; echo fine > fine.txt; ls -a"])
    assert outputs[0].count("Read-only file system") == len(SETTINGS), outputs[0]
    assert outputs[0].count("Is a directory") == 2  # an empty read-only folder holds each missing name
    for name, text in SETTINGS.items():
        assert (probe.root / name).read_text(encoding="utf-8") == text, name
    assert not (probe.root / ".mcp.json").exists() and not (probe.root / "moss-tools.json").exists()
    assert (probe.root / "fine.txt").read_text(encoding="utf-8") == "fine\n"  # the project is writable
    probe.configure('[sandbox]\nunprotect = [".vscode", "AGENTS.md"]\n')  # the person allows these two
    probe.run("echo ALLOWED >> .vscode/settings.json; echo ALLOWED >> AGENTS.md; echo PLANTED >> CLAUDE.md")
    assert (probe.root / ".vscode/settings.json").read_text(encoding="utf-8").endswith("ALLOWED\n")
    assert (probe.root / "AGENTS.md").read_text(encoding="utf-8").endswith("ALLOWED\n")
    assert (probe.root / "CLAUDE.md").exists()  # a missing instruction file may be created: not held


def test_tmp_is_private_to_the_run_and_another_project_under_tmp_is_not_seen(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    other = tmp_path / "other-project" / ".asi"  # another project under the host's /tmp
    other.mkdir(parents=True)
    commands = [
        f"echo $TMPDIR; echo kept > /tmp/note.txt; ls {other} || echo UNSEEN; echo x > {other}/config.toml",
        "cat /tmp/note.txt",  # the run's commands share its /tmp
    ]
    _, outputs, _ = probe.run_all(commands)
    assert outputs[0].startswith("/tmp\n") and "UNSEEN" in outputs[0], outputs[0]
    assert "kept" in outputs[1]
    assert not (other / "config.toml").exists() and not Path("/tmp/note.txt").exists()
    assert not (probe.temp / "note.txt").exists()


def test_caches_toolchains_and_asi_agents_installation_are_not_writable(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    folders = ["~/.cache/pip", "~/.npm/_cacache", "~/.cargo/registry", "~/.rustup", "~/.gradle/init.d",
               "~/.local/share/uv/python", "~/go/pkg/mod", "~/.m2"]  # fmt: skip
    for folder in folders:
        (probe.home / folder[2:]).mkdir(parents=True)
    site = sysconfig.get_paths()["purelib"]
    writes = [f"touch {folder}/MARKER 2>&1 | grep -c 'Read-only'" for folder in folders]
    command = " ; ".join(
        [*writes, f"touch {site}/asi-marker.pth 2>&1 | grep -c 'Read-only'", "echo $XDG_CACHE_HOME"]
    )
    _, seen, _ = probe.run(command)
    assert seen.split()[: len(folders) + 2] == ["1"] * (len(folders) + 1) + ["/tmp/.cache"], seen
    assert not any((probe.home / folder[2:] / "MARKER").exists() for folder in folders)
    assert not Path(site, "asi-marker.pth").exists()
    probe.configure('[sandbox]\ncaches = ["~/.cache/pip"]\n')  # shared on request
    _, shared, _ = probe.run("touch ~/.cache/pip/MARKER; echo $PIP_CACHE_DIR $XDG_CACHE_HOME")
    assert (probe.home / ".cache" / "pip" / "MARKER").exists()
    assert shared.split()[:2] == [str(probe.home / ".cache" / "pip"), "/tmp/.cache"], shared


def test_asi_agent_installed_in_a_venv_inside_the_project_cannot_be_given_a_pth_file(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    venv = probe.root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())  # fmt: skip
    here = [str(Path(asi_agent.__file__).parent.parent), sysconfig.get_paths()["purelib"]]
    (site / "asi-agent-under-test.pth").write_text("\n".join(here) + "\n", encoding="utf-8")
    probe.python = str(venv / "bin" / "python")  # asi-agent runs from the project's own venv
    plant = f"echo 'import this' > {site}/planted.pth; echo x > .venv/bin/activate"  # a .pth runs at start
    _, seen, _ = probe.run(f"{plant}; echo fine > fine.txt")
    assert seen.count("Read-only file system") == 2, seen
    assert not (site / "planted.pth").exists() and (probe.root / "fine.txt").exists()


CREDENTIALS = {
    ".config/gh/hosts.yml": "FAKE-GH-TOKEN", ".cargo/credentials.toml": "FAKE-CARGO-TOKEN",
    ".vault-token": "FAKE-VAULT-TOKEN", ".bash_history": "export FAKE-HISTORY-SECRET",
    ".zsh_history": "FAKE-ZSH-SECRET", ".config/git/credentials": "https://u:FAKE-GIT-PASS@example.org",
    ".pgpass": "FAKE-PG-PASS", ".python_history": "FAKE-PY-HISTORY",
}  # fmt: skip


def test_asi_agents_own_configuration_and_cache_and_credential_files_are_hidden(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    probe.configure('api_key = "FAKE-API-KEY-IN-CONFIG"\n')
    cache = probe.config / "cache"
    cache.mkdir()
    (cache / "first-request.json").write_text("FAKE-CACHED-REQUEST", encoding="utf-8")
    for name, text in CREDENTIALS.items():
        (probe.home / name).parent.mkdir(parents=True, exist_ok=True)
        (probe.home / name).write_text(text + "\n", encoding="utf-8")
    reads = [
        f"cat {probe.config}/config.toml {cache}/first-request.json",
        *(f"cat ~/{n}" for n in CREDENTIALS),
    ]
    command = "; ".join([*reads, f"echo forged > {cache}/sandbox-probe.json", "echo end"])
    (_, inside, _), (_, outside, _) = probe.run(command), probe.run(command, "--no-sandbox")
    assert "FAKE-" not in inside and inside.count("end") == 1, inside
    for text in ["FAKE-API-KEY-IN-CONFIG", "FAKE-CACHED-REQUEST", *CREDENTIALS.values()]:
        assert text in outside  # there to be read: the sandbox is what hides them
    (cache / "sandbox-probe.json").unlink()
    probe.run(command)
    assert not (cache / "sandbox-probe.json").read_text(encoding="utf-8").startswith("forged")


def test_a_forged_no_sandbox_verdict_in_the_cache_does_not_turn_the_sandbox_off(tmp_path: Path) -> None:
    probe = Probe(tmp_path)
    assert BWRAP is not None
    key = f"{BWRAP}|{BWRAP.stat().st_mtime_ns}|{os.uname().release}"
    forged = {"key": key, "reason": "forged: user namespaces are disabled"}
    (probe.config / "cache").mkdir()
    (probe.config / "cache" / "sandbox-probe.json").write_text(json.dumps(forged), encoding="utf-8")
    result, _, stderr = probe.run("true")
    assert result["sandbox"] == "bubblewrap", stderr
    assert stderr.splitlines()[0].startswith("asi-agent: sandbox: bubblewrap")
