"""The published tool schemas match spec §3.4 and the files in the top-level `tools/` match the code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.schema import LOCALES, parameters_schema, render_schema_files, tool_schema

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "docs" / "spec" / "asi-model-adaptation-spec-v1.0.md"
GEN = REPO / "scripts" / "gen_tools.py"


def _spec_blocks() -> dict[str, dict[str, object]]:
    """Every `#### `name`` heading of §3.4 followed by its JSON block, parsed."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("### 3.4", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^#### `(\w+)`\s*```json\n(.*?)\n```", section, flags=re.S | re.M)
    return {name: json.loads(block) for name, block in found}


SPEC_BLOCKS = _spec_blocks()
SPECS = {spec.name: spec for spec in builtin_specs()}


def _table_3_1() -> list[str]:
    """The tool names of the §3.1 table, in its order."""
    section = SPEC.read_text(encoding="utf-8").split("### 3.1", 1)[1].split("### 3.2", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, flags=re.M)


def test_catalog_holds_the_22_spec_tools_in_section_3_1_order_then_moss() -> None:
    assert len(SPEC_BLOCKS) == 22
    assert set(SPEC_BLOCKS) == set(_table_3_1())
    assert list(SPECS) == [*_table_3_1(), "moss_register_plugin_tool", "moss_update_asi_user_prompt"]


@pytest.mark.parametrize("name", list(SPEC_BLOCKS))
def test_zh_parameters_equal_the_spec_block(name: str) -> None:
    generated = parameters_schema(SPECS[name], "zh")
    # Same key order too: the published files must read exactly like the spec.
    assert json.dumps(generated, ensure_ascii=False) == json.dumps(SPEC_BLOCKS[name], ensure_ascii=False)


@pytest.mark.parametrize("name", list(SPEC_BLOCKS))
def test_en_parameters_differ_from_zh_only_in_descriptions(name: str) -> None:
    zh = parameters_schema(SPECS[name], "zh")
    en = parameters_schema(SPECS[name], "en")
    for prop_zh, prop_en in zip(zh["properties"].values(), en["properties"].values(), strict=True):
        assert {k: v for k, v in prop_zh.items() if k != "description"} == {
            k: v for k, v in prop_en.items() if k != "description"
        }
        assert prop_en["description"].isascii()
    assert zh.get("required") == en.get("required")


def test_tool_schema_has_the_function_shape() -> None:
    schema = tool_schema(SPECS["read_file"])
    assert list(schema) == ["type", "function"]
    assert schema["type"] == "function"
    assert list(schema["function"]) == ["name", "description", "parameters"]
    assert schema["function"]["name"] == "read_file"
    assert "read_file" not in schema["function"]["description"]
    assert schema["function"]["description"].startswith("读取")


def test_published_files_equal_what_the_code_generates() -> None:
    expected = render_schema_files(builtin_specs())
    assert len(expected) == 24 * len(LOCALES)
    for relative, text in expected.items():
        path = REPO / "tools" / relative
        assert path.is_file(), f"{relative} is missing: run scripts/gen_tools.py"
        assert path.read_text(encoding="utf-8") == text, f"{relative} drifted: run scripts/gen_tools.py"


def test_published_files_are_exactly_the_generated_set() -> None:
    on_disk = {p.relative_to(REPO / "tools").as_posix() for p in (REPO / "tools").rglob("*.json")}
    assert on_disk == set(render_schema_files(builtin_specs()))


def _gen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(GEN), *args], capture_output=True, text=True, check=False)


def test_gen_tools_writes_then_check_reports_drift(tmp_path: Path) -> None:
    out = tmp_path / "tools"
    assert _gen("--out", str(out)).returncode == 0
    assert (out / "read_file.json").read_text(encoding="utf-8").endswith("}\n")
    assert json.loads((out / "en" / "read_file.json").read_text(encoding="utf-8"))["function"]["name"] == (
        "read_file"
    )
    assert _gen("--check", "--out", str(out)).returncode == 0

    (out / "read_file.json").write_text("{}\n", encoding="utf-8")
    (out / "en" / "old_tool.json").write_text("{}\n", encoding="utf-8")
    (out / "delete_file.json").unlink()
    checked = _gen("--check", "--out", str(out))
    assert checked.returncode == 1
    reported = sorted(line.rsplit("/", 2)[-1] for line in checked.stdout.splitlines())
    assert reported == ["delete_file.json", "old_tool.json", "read_file.json"]

    assert _gen("--out", str(out)).returncode == 0
    assert not (out / "en" / "old_tool.json").exists()
    assert _gen("--check", "--out", str(out)).returncode == 0
