"""The edit guard through the real `asi-agent run` with a scripted model: an edit that would break a
Python file is not applied, and the model is told why, with the parser's message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asi_cli import asi, tool_results

GREET = 'def greet(name):\n    return f"hello {name}"\n'
BREAKING_EDIT = {
    "text": "I will add the type hint.",
    "tool_calls": [
        {
            "name": "replace_text",
            "arguments": {"path": "greet.py", "oldText": "greet(name):", "newText": "greet(name: str)"},
        }
    ],
}


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "greet.py").write_text(GREET, encoding="utf-8")
    replies = [BREAKING_EDIT, "The edit would break greet.py.\nAGENT_STATUS: STOP"]
    script = {"native": True, "replies": replies}
    (tmp_path / "script.json").write_text(json.dumps(script), encoding="utf-8")
    return root


def _run(root: Path) -> tuple[int, dict[str, Any]]:
    proc = asi(
        "run", "--provider", "scripted", "--model", str(root.parent / "script.json"), "--yes",
        "--output-format", "json", "Add a type hint to greet", cwd=root,
    )
    assert proc.stdout.strip(), proc.stderr
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])



def test_an_edit_that_would_break_a_python_file_is_refused_and_the_model_told_why(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, result = _run(root)
    assert (root / "greet.py").read_text(encoding="utf-8") == GREET
    assert code == 2 and result["status"] == "STOP"
    assert result["changed_files"] == []
    [seen] = tool_results(root, result["session_id"])
    assert "edit refused: after this change greet.py would not parse (line 1: expected ':')" in seen
    assert "greet.py is unchanged" in seen and "> 1| def greet(name: str)" in seen
    assert result["tool_calls"][0]["ok"] is False
    assert result["guarded_edits"] == 1
    assert result["verified"] is False
    assert {"name": "tool_evidence", "ok": False, "detail": "no tool call succeeded", "required": False} in (
        result["checks"]
    )


def test_edit_guard_false_in_the_project_config_lets_the_edit_through(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / ".asi").mkdir()
    (root / ".asi" / "config.toml").write_text("edit_guard = false\n", encoding="utf-8")
    _code, result = _run(root)
    assert (root / "greet.py").read_text(encoding="utf-8") == GREET.replace("(name):", "(name: str)")
    assert result["changed_files"] == ["greet.py"]
    assert "would not parse" not in "".join(tool_results(root, result["session_id"]))
    # The guard was off, so the broken file was written; the ending's check still sees it.
    assert not next(c for c in result["checks"] if c["name"] == "files_parse")["ok"]
