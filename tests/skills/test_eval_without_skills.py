"""`asi-agent eval` offers the same tools whoever runs it: the user's skills are left out."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env

from asi_agent.eval.suite import BUILTIN_SUITE


def test_eval_runs_do_not_offer_execute_skill_though_the_user_has_skills(tmp_path: Path) -> None:
    home, config = tmp_path / "home", tmp_path / "config"
    folder = home / ".claude" / "skills" / "notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: notes\ndescription: Take notes.\n---\nNotes.\n", "utf-8")
    task = "none-http-404"
    shutil.copytree(BUILTIN_SUITE / task, tmp_path / "suite" / task)
    replies = [{"tool_calls": [{"name": "execute_skill", "arguments": {"skill_id": "notes"}}]},
               "404 means Not Found.\nAGENT_STATUS: DONE"]  # fmt: skip
    (tmp_path / "suite" / task / "s.json").write_text(json.dumps({"native": True, "replies": replies}))
    env = model_free_env()
    env.update(HOME=str(home), ASI_CONFIG_DIR=str(config))
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "eval", "--suite", "suite", "--provider", "scripted",
         "--model", "s.json", "--output", "out.json"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (result,) = json.loads((tmp_path / "out.json").read_text())["tasks"]
    requests = [r for r in result["transcript"] if r.get("type") == "request"]
    assert requests and all("execute_skill" not in json.dumps(r["tools"]) for r in requests)
    assert result["tools"] == ["execute_skill"]  # called anyway: an unknown tool there
