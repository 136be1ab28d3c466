"""Long command output summarised by the model through the real `asi-agent run`; the full log kept."""

from __future__ import annotations

import sys
from pathlib import Path

from asi_cli import tool_results
from ext_run import DONE, json_run

LONG = f"{sys.executable} -c \"[print('line', i) for i in range(3000)]; print('FAILED test_x.py:12')\""
SHORT = f"{sys.executable} -c \"print('short')\""


def _project(tmp_path: Path, config: str = "output_summary = true\n") -> Path:
    """A project; the scripted model summarises output only when the configuration asks for it."""
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "user-config").mkdir()
    (tmp_path / "user-config" / "config.toml").write_text(config)
    return root


def _run(command: str) -> dict[str, object]:
    return {"name": "run_terminal_cmd", "arguments": {"command": command}}


def test_long_output_is_summarised_and_the_full_log_is_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    summary = "Printed 3000 numbered lines, then one failure: FAILED test_x.py:12"

    result = json_run(root, [_run(SHORT), _run(LONG)], "--yes", "--no-sandbox",
                      replies_after=[summary, DONE, DONE])  # fmt: skip

    short, long = tool_results(root, str(result["session_id"]))
    assert short.startswith("short\n") and "summary" not in short
    assert long.startswith("The output was too long to send whole: this is the model's summary of it.")
    assert summary in long and "line 2999\nFAILED test_x.py:12\nexit code: 0" in long
    assert "line 1500" not in long
    [log] = (root / ".asi" / "outputs").glob("*.log")
    assert f".asi/outputs/{log.name}" in long
    assert "line 1500\n" in log.read_text()


def test_without_output_summary_the_head_and_tail_are_sent(tmp_path: Path) -> None:
    root = _project(tmp_path, "")  # the scripted model's default

    result = json_run(root, [_run(LONG)], "--yes", "--no-sandbox")

    [long] = tool_results(root, str(result["session_id"]))
    assert "lines elided (full output: .asi/outputs/" in long and "summary" not in long
    assert result["result"] == "Done."
