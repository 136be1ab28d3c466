"""`docs/tools.md` lists every tool with its class, schema and an example that the registry accepts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from asi_agent.tools.registry import default_registry

REPO = Path(__file__).resolve().parents[2]
GEN = REPO / "scripts" / "gen_tool_docs.py"
sys.path.insert(0, str(GEN.parent))
from gen_tool_docs import EXAMPLES, all_tools  # noqa: E402

from asi_agent.tools.catalog import EXTENSION_TOOLS  # noqa: E402

REGISTRY = all_tools()


def test_the_page_is_what_the_code_generates() -> None:
    command = [sys.executable, str(GEN), "--check"]
    checked = subprocess.run(command, capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout


def test_every_tool_has_an_example_and_a_section() -> None:
    assert set(EXAMPLES) == set(REGISTRY.names())
    assert set(EXTENSION_TOOLS) <= set(REGISTRY.names()), "an extension tool is missing from the page"
    assert set(default_registry(extensions=True).names()) <= set(REGISTRY.names())
    page = (REPO / "docs" / "tools.md").read_text(encoding="utf-8")
    for name in REGISTRY.names():
        assert f"## `{name}`" in page


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_example_is_a_valid_call(name: str) -> None:
    assert REGISTRY.validate(name, EXAMPLES[name]).model_dump(exclude_unset=True) == EXAMPLES[name]


def test_the_check_fails_when_the_page_is_stale(tmp_path: Path) -> None:
    # A copy of the generator beside a page that lacks one tool's section: --check must say so.
    (tmp_path / "scripts").mkdir()
    (tmp_path / "docs").mkdir()
    copy = tmp_path / "scripts" / "gen_tool_docs.py"
    copy.write_text(GEN.read_text(encoding="utf-8"), encoding="utf-8")
    page = (REPO / "docs" / "tools.md").read_text(encoding="utf-8")
    (tmp_path / "docs" / "tools.md").write_text(page.replace("## `task`", "## `tusk`"), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, str(copy), "--check"], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 1 and "drifted" in checked.stdout
