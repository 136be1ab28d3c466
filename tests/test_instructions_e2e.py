"""Instruction files: `@path` imports into the system prompt, and the files of sub-folders given with the
first `read_file` below them (the real `asi-agent run` with a scripted model)."""

from __future__ import annotations

from pathlib import Path

from asi_cli import tool_results
from ext_run import json_run

from asi_agent.prompts import system_prompt


def test_imports_are_expanded_once_inside_the_project_only(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "secret.md").write_text("SECRET-OUTSIDE")
    (root / "docs" / "style.md").write_text("Use tabs. STYLE-MARKER\n@more.md\n")
    (root / "docs" / "more.md").write_text("MORE-MARKER\n@style.md")  # a cycle stops
    (root / "AGENTS.md").write_text(
        "# Rules\n@docs/style.md\n@../secret.md\n```\n@docs/more.md\n```\nSee @docs/style.md inline.\n"
    )

    prompt = system_prompt(root, tmp_path / "user-config", git=False)

    assert "Use tabs. STYLE-MARKER\nMORE-MARKER\n@style.md" in prompt
    assert prompt.count("STYLE-MARKER") == 1 and prompt.count("MORE-MARKER") == 1
    assert "@../secret.md" in prompt and "SECRET-OUTSIDE" not in prompt
    assert "```\n@docs/more.md\n```" in prompt and "See @docs/style.md inline." in prompt


def test_a_sub_folders_instructions_come_with_the_first_file_read_there(tmp_path: Path) -> None:
    root = tmp_path / "project"
    api = root / "src" / "api"
    api.mkdir(parents=True)
    (root / "AGENTS.md").write_text("ROOT-RULES\n")
    (root / "src" / "CLAUDE.md").write_text("SRC-RULES\n")
    (api / "AGENTS.md").write_text("API-RULES: validate every input.\n")
    (api / "a.py").write_text("A = 1\n")
    (api / "b.py").write_text("B = 2\n")
    calls = [{"name": "read_file", "arguments": {"path": path}}
             for path in ("src/api/missing.py", "src/api/a.py", "src/api/b.py")]  # fmt: skip

    result = json_run(root, calls)

    missing, first, second = tool_results(root, result["session_id"])
    assert "RULES" not in missing  # a failed read gives nothing, and takes nothing away
    assert first.startswith("src/api/a.py (1 line)")
    assert "[Instructions for src/ from src/CLAUDE.md; follow them there:]\nSRC-RULES" in first
    assert "[Instructions for src/api/ from src/api/AGENTS.md; follow them there:]\nAPI-RULES" in first
    assert "ROOT-RULES" not in first  # the root's files are in the system prompt
    assert "RULES" not in second
