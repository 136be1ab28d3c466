"""Imports flow one way: shared types → components → agent → assembly → front ends (AGENTS.md, Layout)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "asi_agent"
# userdirs: where config lives; trust: which project folders may configure it; wire: status text, written
# once; config_sections: the configuration's sections
SHARED = {
    "messages", "events", "exceptions", "config", "config_sections", "userdirs", "trust", "wire",
    "envsettings",
}  # fmt: skip
AGENT = {"agent"}
# configuration → backend, registry, policy, session → agent; the drive loop; child agents (`task`)
ASSEMBLY = {"assembly", "subagents"}
# eval drives the agent; data reads transcripts for people; acp is the editor protocol's agent, beside ui/;
# mcpserve serves the tools to MCP clients
FRONT_ENDS = {"ui", "eval", "data", "acp", "gateway", "mcpserve", "__main__"}
LAYERS = " → ".join(("shared types", "components", "agent", "assembly", "front ends"))
ENTRY = {"__main__"}
"""`python -m asi_agent` only starts the command line: the one module outside ui/ that may import it."""
VENDOR_ONLY_IN: dict[str, str | tuple[str, ...]] = {
    "openai": "backends",
    "ollama": "backends",
    "xllamacpp": "backends",
    "anthropic": "backends",
    # the HTTP server stack: only `asi-agent serve` and `asi-agent mcp serve --http` run it
    "starlette": "gateway",
    "uvicorn": ("gateway", "mcpserve"),
    "httptools": "gateway",  # the gateway's own HTTP/1.1 server
    "textual": "ui",
    "prompt_toolkit": "ui",
    "acp": "acp",  # the Agent Client Protocol SDK: only the editor front end speaks it
}


def _layer(top: str) -> int:
    if top in SHARED:
        return 0
    if top in AGENT:
        return 2
    if top in ASSEMBLY:
        return 3
    if top in FRONT_ENDS:
        return 4
    return 1


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        yield rel, rel.parts[0].removesuffix(".py")


def _imports(rel: Path):
    """The absolute name of every module `rel` imports; `from X import y` also yields `X.y` (y may be a
    module), and relative imports are resolved against the module's package."""
    tree = ast.parse((PACKAGE / rel).read_text(encoding="utf-8"))
    package = ["asi_agent", *rel.parent.parts]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names if alias.name != "*")


@pytest.mark.parametrize(("rel", "top"), list(_modules()), ids=str)
def test_imports_flow_one_way(rel, top):
    for name in _imports(rel):
        parts = name.split(".")
        if parts[0] == "asi_agent" and len(parts) > 1:
            target = parts[1]
            if target == top:
                continue
            assert _layer(target) <= _layer(top), f"{rel} imports {name}: imports must flow {LAYERS}"
        owner = VENDOR_ONLY_IN.get(parts[0])
        owners = (owner,) if isinstance(owner, str) else owner or ()
        if owners:
            where = " or ".join(f"asi_agent/{name}/" for name in owners)
            assert top in owners, f"{rel} imports {parts[0]}, which only {where} may import"


@pytest.mark.parametrize(("rel", "top"), [(rel, top) for rel, top in _modules() if top != "ui"], ids=str)
def test_nothing_outside_ui_imports_ui(rel, top):
    """The front ends build and drive the agent through the assembly layer, never through another front end:
    `eval` and `data` import no `asi_agent.ui` (nor does anything below them)."""
    if top in ENTRY:
        return
    found = sorted({name for name in _imports(rel) if name.split(".")[:2] == ["asi_agent", "ui"]})
    assert not found, f"{rel} imports {', '.join(found)}: only asi_agent/ui/ may import the user interface"


def test_eval_imports_no_ui():
    eval_modules = [rel for rel, top in _modules() if top == "eval"]
    assert eval_modules
    for rel in eval_modules:
        found = [name for name in _imports(rel) if name.split(".")[:2] == ["asi_agent", "ui"]]
        assert not found, f"{rel} imports {', '.join(found)}: eval builds its agents with asi_agent.assembly"


def test_the_layers_are_known():
    """Every top-level module or package of asi_agent is in one named layer (components are the rest)."""
    tops = {top for _, top in _modules()}
    assert tops >= ASSEMBLY, "asi_agent/assembly.py builds the agent for every front end"
    assert tops >= FRONT_ENDS
    assert [_layer(top) for top in ("config", "tools", "agent", "assembly", "ui")] == [0, 1, 2, 3, 4]


def test_shared_types_import_no_component():
    for top in SHARED:
        rel = Path(f"{top}.py")
        for name in _imports(rel):
            parts = name.split(".")
            if parts[0] == "asi_agent":
                assert len(parts) == 1 or parts[1] in SHARED, f"{top}.py imports {name}"
