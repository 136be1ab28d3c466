"""`asi-agent run --chat-template FILE`: the calls of a model whose template writes them in a form no named
reader knows are read and run; a cut-off one is not run; a missing file is an error that says what to fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

from asi_cli import text_mode_run

TEMPLATE = (
    "{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}<<call {{ c.function.name }}|"
    "{{ c.function.arguments | tojson }}>>{% endfor %}{% else %}{{ m.role }}: {{ m.content }}\n{% endif %}"
    "{% endfor %}"
)
BUGGY = "def add(a, b):\n    return a - b\n"
EDIT = '<<call replace_text|{"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"}>>'


def run(server, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return text_mode_run(server.base_url, *args, cwd=cwd)


def project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    template = tmp_path / "family.jinja"
    template.write_text(TEMPLATE)
    return root, template


def test_calls_in_the_templates_form_are_run(tmp_path: Path, openai_server):
    root, template = project(tmp_path)
    openai_server.reply(
        '<<call read_file|{"path": "calc.py"}>>', EDIT, "Fixed add: it subtracted.\nAGENT_STATUS: DONE"
    )

    done = run(openai_server, "--chat-template", str(template), "Fix add in calc.py", cwd=root)

    assert done.returncode == 0, done.stderr
    assert (root / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"


def test_a_cut_off_call_in_the_templates_form_is_not_run(tmp_path: Path, openai_server):
    root, template = project(tmp_path)
    cut = EDIT[: EDIT.index("a + b")]
    openai_server.reply(cut, "I could not finish the edit.\nAGENT_STATUS: STOP")

    done = run(openai_server, "--chat-template", str(template), "Fix add in calc.py", cwd=root)

    assert (root / "calc.py").read_text() == BUGGY
    retry = openai_server.chat_bodies[1]["messages"][-1]["content"]
    assert "nothing of it was run" in retry, retry
    assert done.returncode == 2, done.stderr  # STOP


def test_a_missing_template_file_says_what_to_give(tmp_path: Path, openai_server):
    root, _ = project(tmp_path)

    done = run(openai_server, "--chat-template", "nowhere.jinja", "Fix add", cwd=root)

    assert done.returncode != 0
    assert "nowhere.jinja" in done.stderr and "chat template" in done.stderr
    assert openai_server.chat_bodies == []
