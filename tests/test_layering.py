"""Imports flow one way: shared types → components → agent → ui (STYLE.md §2)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "asi_agent"
SHARED = {"messages", "events", "exceptions", "config", "userdirs"}  # userdirs: where config lives
AGENT = {"agent"}
UI = {"ui", "eval", "data"}  # eval drives the agent; data reads its transcripts for people
VENDOR_ONLY_IN = {
    "openai": "backends",
    "ollama": "backends",
    "xllamacpp": "backends",
    "textual": "ui",
    "prompt_toolkit": "ui",
}


def _layer(top: str) -> int:
    if top in SHARED:
        return 0
    if top in AGENT:
        return 2
    if top in UI or top == "__main__":
        return 3
    return 1


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        yield rel, rel.parts[0].removesuffix(".py")


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


@pytest.mark.parametrize(("rel", "top"), list(_modules()), ids=str)
def test_imports_flow_one_way(rel, top):
    for name in _imports(PACKAGE / rel):
        parts = name.split(".")
        if parts[0] == "asi_agent" and len(parts) > 1:
            target = parts[1]
            if target == top:
                continue
            assert _layer(target) <= _layer(top), (
                f"{rel} imports {name}: imports must flow shared → components → agent → ui"
            )
        owner = VENDOR_ONLY_IN.get(parts[0])
        if owner:
            assert top == owner, f"{rel} imports {parts[0]}, which only asi_agent/{owner}/ may import"


def test_shared_types_import_no_component():
    for top in SHARED:
        path = PACKAGE / f"{top}.py"
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "asi_agent":
                assert parts[1] in SHARED, f"{top}.py imports {name}"
