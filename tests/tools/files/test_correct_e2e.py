"""Forgiving `replace_text` through the real `asi-agent run`: whitespace, escapes, one model call that
corrects oldText (unless turned off), and the JSON result's `corrected_edits`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from asi_cli import tool_results
from ext_run import DONE, json_run

CODE = 'def add(a, b):\n    return a - b\n\n\ndef greet():\n    print("hi")\n'


def _replace(old: str, new: str) -> dict[str, Any]:
    return {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": old, "newText": new}}


def _project(tmp_path: Path, config: str = "edit_correction = true\n") -> Path:
    """A project; the scripted model corrects edits only when the configuration asks for it."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(CODE)
    (tmp_path / "user-config").mkdir()
    (tmp_path / "user-config" / "config.toml").write_text(config)
    return root


def test_escapes_whitespace_and_the_model_each_correct_one_edit(tmp_path: Path) -> None:
    root = _project(tmp_path)
    calls = [
        _replace('print(\\"hi\\")', 'print(\\"hello\\")'),  # escaped twice, as a model may send it
        _replace("  return a - b  ", "  return a + b"),  # other indentation, trailing spaces
        _replace("def greet( ):", "def greet() -> None:"),  # no match at all: the model is asked
    ]
    correction = "```python\ndef greet():\n```"

    result = json_run(root, calls, "--approval", "auto-edit", replies_after=[correction, DONE, DONE])

    seen = tool_results(root, result["session_id"])
    assert [call["ok"] for call in result["tool_calls"]] == [True, True, True], seen
    assert "oldText matched once its backslash escapes were read as text" in seen[0]
    assert "matched ignoring whitespace differences" in seen[1]
    assert "the model corrected oldText to the file's text" in seen[2]
    assert (root / "calc.py").read_text() == (
        'def add(a, b):\n    return a + b\n\n\ndef greet() -> None:\n    print("hello")\n'
    )
    assert result["corrected_edits"] == 3


def test_a_correction_not_in_the_file_is_not_applied(tmp_path: Path) -> None:
    root = _project(tmp_path)

    result = json_run(
        root, [_replace("def greet( ):", "x")], "--approval", "auto-edit",
        replies_after=["```\ndef farewell():\n```", DONE, DONE],
    )  # fmt: skip

    assert result["tool_calls"][0]["ok"] is False
    assert "oldText was not found in calc.py" in result["tool_calls"][0]["error"]
    assert (root / "calc.py").read_text() == CODE
    assert result["corrected_edits"] == 0


def test_without_edit_correction_no_model_call_is_made(tmp_path: Path) -> None:
    root = _project(tmp_path, "")  # the scripted model's default

    result = json_run(root, [_replace("def greet( ):", "x")], "--approval", "auto-edit")

    assert result["tool_calls"][0]["ok"] is False
    assert result["status"] == "DONE" and result["result"] == "Done."  # the DONE reply was not used up
    assert result["corrected_edits"] == 0
