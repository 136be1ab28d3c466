"""lint_check on real files in a temporary project, with the real ruff."""

from __future__ import annotations

import importlib.util
import json
import os
import stat
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import LintCheckArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.lint import lint_check

HAS_YAML = importlib.util.find_spec("yaml") is not None


def _put(ctx: ToolContext, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = ctx.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


async def _lint(ctx: ToolContext, path: str) -> str:
    return await lint_check(LintCheckArgs(path=path), ctx)


async def test_clean_python_file(ctx: ToolContext) -> None:
    _put(ctx, {"ok.py": "import os\n\nprint(os.sep)\n"})
    assert await _lint(ctx, "ok.py") == "no problems found in 1 file"


async def test_python_syntax_error_and_ruff_finding(ctx: ToolContext) -> None:
    _put(ctx, {"src/bad.py": "import os\n\ndef f(:\n    pass\n", "src/unused.py": "import sys\n"})
    out = await _lint(ctx, "src")
    assert out.splitlines() == [
        "2 problem(s) in 2 file(s) (2 checked):",
        "src/bad.py:3:7 E999 SyntaxError: invalid syntax",
        "src/unused.py:1:8 F401 `sys` imported but unused",
    ]


async def test_broken_json_and_toml(ctx: ToolContext) -> None:
    _put(ctx, {"a.json": '{"a": 1,\n "b": }\n', "b.toml": "x = 1\ny = = 2\n", "c.json": "[1, 2]\n"})
    assert (await _lint(ctx, "a.json")).splitlines()[1] == "a.json:2:7 json Expecting value"
    assert (await _lint(ctx, "b.toml")).splitlines()[1] == "b.toml:2:5 toml Invalid value"
    assert await _lint(ctx, "c.json") == "no problems found in 1 file"


async def test_yaml_checked_or_skipped_with_a_note(ctx: ToolContext) -> None:
    _put(ctx, {"conf.yaml": "a: [1, 2\nb: 3\n"})
    out = await _lint(ctx, "conf.yaml")
    if HAS_YAML:
        assert out.splitlines()[1].startswith("conf.yaml:")
    else:
        assert (
            out == "no problems found in 0 files\nnote: 1 YAML file(s) not checked: PyYAML is not installed"
        )


async def test_whole_project_skips_tool_folders_and_notes_javascript(ctx: ToolContext) -> None:
    _put(
        ctx,
        {
            "app.py": "x = 1\n",
            "pkg/data.json": "{}\n",
            "pyproject.toml": "[project]\nname = 'p'\n",
            "web/app.js": "const a = 1;\n",
            "node_modules/dep/broken.json": "{",
            ".venv/lib/broken.py": "def (:\n",
            ".git/config.json": "{",
        },
    )
    for spelling in ("project", ".", "*"):
        out = await _lint(ctx, spelling)
        assert out.splitlines() == [
            "no problems found in 3 files",
            "note: JavaScript/TypeScript files not checked: "
            "the project has no ESLint configured and installed",
        ]


async def test_project_eslint_is_used_when_configured(ctx: ToolContext) -> None:
    # A stand-in `eslint` that prints a report in ESLint's JSON format, as the real one does with -f json -o.
    report = [
        {
            "filePath": f"{ctx.root}/web/app.js",
            "messages": [
                {"ruleId": "no-unused-vars", "severity": 2, "message": "a is unused", "line": 1, "column": 7}
            ],
        }
    ]
    fake = ctx.root / "node_modules" / ".bin" / "eslint"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        "#!/bin/sh\n"
        'while [ "$1" != "-o" ]; do shift; done\n'
        f"printf '%s' '{json.dumps(report)}' > \"$2\"\n"
        "exit 1\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    _put(ctx, {"eslint.config.js": "module.exports = [];\n", "web/app.js": "const a = 1;\n"})
    out = await _lint(ctx, "web/app.js")
    assert out.splitlines() == [
        "1 problem(s) in 1 file(s) (1 checked):",
        "web/app.js:1:7 no-unused-vars a is unused",
    ]


async def test_missing_unknown_and_outside_paths(ctx: ToolContext, tmp_path: Path) -> None:
    with pytest.raises(ToolError, match=r"nope\.py does not exist"):
        await _lint(ctx, "nope.py")
    with pytest.raises(PermissionDeniedError):
        await _lint(ctx, os.fspath(tmp_path))
    _put(ctx, {"README.md": "# hi\n"})
    assert "no checker for .md files" in await _lint(ctx, "README.md")
