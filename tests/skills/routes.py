"""`asi-agent skills route QUERY --json` as a subprocess in a test's folder: the router's decision, as the
agent takes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env


def route_json(tmp: Path, query: str, *, embeddings: str | None = None) -> dict[str, object]:
    """Route `query` in `tmp/project` with `tmp/home` as home and `tmp/config` as the user's configuration
    folder; `embeddings` sets `[skills] embeddings` there (else the default, `auto`)."""
    env = model_free_env()
    env["HOME"], env["ASI_CONFIG_DIR"] = str(tmp / "home"), str(tmp / "config")
    if embeddings is not None:
        (tmp / "config").mkdir(exist_ok=True)
        setting = f'[skills]\nembeddings = "{embeddings}"\n'
        (tmp / "config" / "config.toml").write_text(setting, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "skills", "route", query, "--json"],
        cwd=tmp / "project", capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    route: dict[str, object] = json.loads(done.stdout)
    return route


def project_with_skills(tmp: Path, skills: dict[str, str]) -> Path:
    """`tmp` holding a project whose `.asi/skills/NAME/SKILL.md` are `skills`' texts, and an empty home."""
    for name, text in skills.items():
        folder = tmp / "project" / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    (tmp / "home").mkdir()
    return tmp


def candidate_names(route: dict[str, object]) -> list[str]:
    """The names of a route's candidates, best first."""
    candidates = route["candidates"]
    assert isinstance(candidates, list)
    return [c["name"] for c in candidates]
