"""Reading `moss-tools.json`: valid tools load, every problem names the manifest, the tool and the field."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from asi_agent.plugins import build_registry, describe_tools, load_plugin_tools
from asi_agent.plugins.manifest import render_manifest_schema

REPO = Path(__file__).resolve().parents[2]


def tool(name: str = "word_count", **overrides) -> dict:
    entry = {
        "name": name,
        "description": "Count words in a text file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "risk": "read",
        "run": {"type": "command", "command": ["python3", "plugins/wc.py"], "timeout": 30},
    }
    entry.update(overrides)
    return entry


def write(folder: Path, data: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "moss-tools.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    root, user = tmp_path / "project", tmp_path / "user"
    root.mkdir()
    return root, user


def test_missing_manifests_are_fine(dirs):
    specs, problems = load_plugin_tools(*dirs, trusted=True)
    assert (specs, problems) == ([], [])


def test_valid_tool_loads_with_its_source_risk_and_raw_schema(dirs):
    root, user = dirs
    write(root, {"$schema": "plugins/moss-tools.schema.json", "version": 1, "tools": [tool()]})
    registry, problems = build_registry(root, user, locale="en", trusted=True)
    assert problems == []
    spec = registry.get("word_count")
    assert (spec.source, spec.risk, spec.description) == (
        "moss-tools.json",
        "read",
        "Count words in a text file",
    )
    published = next(s for s in registry.schemas() if s["function"]["name"] == "word_count")
    assert published["function"]["parameters"] == tool()["parameters"]
    assert published["function"]["description"] == "Count words in a text file"
    row = next(r for r in describe_tools(registry) if r["name"] == "word_count")
    assert row == {"name": "word_count", "source": "moss-tools.json", "risk": "read", "implemented": True}


def test_risk_defaults_to_execute(dirs):
    root, user = dirs
    entry = tool()
    del entry["risk"]
    write(root, {"tools": [entry]})
    specs, _ = load_plugin_tools(root, user, trusted=True)
    assert specs[0].risk == "execute"


def test_broken_json_names_file_line_and_column(dirs):
    root, user = dirs
    write(root, '{"version": 1,\n "tools": [\n   {"name": "x",}\n ]}')
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert specs == []
    assert len(problems) == 1
    text = str(problems[0])
    assert text.startswith("moss-tools.json:3:")
    assert "line 3, column" in text


def test_missing_field_names_manifest_tool_and_field_and_others_still_load(dirs):
    root, user = dirs
    broken = tool("broken")
    del broken["description"]
    write(root, {"tools": [broken, tool("good")]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert [s.name for s in specs] == ["good"]
    assert [(p.manifest, p.tool, p.field) for p in problems] == [("moss-tools.json", "broken", "description")]
    assert str(problems[0]) == "moss-tools.json: tool 'broken': field 'description': this field is required"


def test_missing_run_field_is_named_without_the_union_tag(dirs):
    root, user = dirs
    write(root, {"tools": [tool(run={"type": "python"}), tool("http_one", run={"type": "ftp", "url": "x"})]})
    _, problems = load_plugin_tools(root, user, trusted=True)
    assert [(p.tool, p.field) for p in problems] == [("word_count", "run.entry"), ("http_one", "run")]
    assert "command" in problems[1].message and "python" in problems[1].message


def test_name_clash_with_a_builtin(dirs):
    root, user = dirs
    write(root, {"tools": [tool("read_file")]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert specs == []
    assert (problems[0].tool, problems[0].field) == ("read_file", "name")
    assert "already used" in problems[0].message


def test_name_clash_between_project_and_user_keeps_the_project_tool(dirs):
    root, user = dirs
    write(root, {"tools": [tool("shared", description="project")]})
    write(user, {"tools": [tool("shared", description="user"), tool("mine")]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert [(s.name, s.source, s.description) for s in specs] == [
        ("shared", "moss-tools.json", "project"),
        ("mine", "user:moss-tools.json", "Count words in a text file"),
    ]
    assert len(problems) == 1
    assert problems[0].manifest == str(user / "moss-tools.json")
    assert (problems[0].tool, problems[0].field) == ("shared", "name")


def test_name_clash_inside_one_manifest(dirs):
    root, user = dirs
    write(root, {"tools": [tool("twice"), tool("twice")]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert len(specs) == 1 and [(p.tool, p.field) for p in problems] == [("twice", "name")]


@pytest.mark.parametrize(
    ("parameters", "field", "words"),
    [
        ({"type": "string"}, "parameters.type", '"type": "object"'),
        ({"properties": {}}, "parameters.type", '"type": "object"'),
        (
            {"type": "object", "properties": {"n": {"type": "integr"}}},
            "parameters.properties.n.type",
            "JSON Schema",
        ),
        ({"type": "object", "required": "path"}, "parameters.required", "JSON Schema"),
    ],
)
def test_parameters_must_be_a_json_schema_object(dirs, parameters, field, words):
    root, user = dirs
    write(root, {"tools": [tool(parameters=parameters), tool("fine")]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert [s.name for s in specs] == ["fine"]
    assert [(p.tool, p.field) for p in problems] == [("word_count", field)]
    assert words in problems[0].message


def test_bad_name_unknown_field_and_bad_risk(dirs):
    root, user = dirs
    write(root, {"tools": [tool("has space"), tool("extra", colour="red"), tool("risky", risk="dangerous")]})
    _, problems = load_plugin_tools(root, user, trusted=True)
    assert [(p.tool, p.field) for p in problems] == [
        ("has space", "name"),
        ("extra", "colour"),
        ("risky", "risk"),
    ]
    assert problems[1].message == "unknown field; remove it"


def test_top_level_problems(dirs):
    root, user = dirs
    write(root, {"version": 2, "tools": {}})
    _, problems = load_plugin_tools(root, user, trusted=True)
    assert {p.field for p in problems} == {"version", "tools"}


def test_python_entry_whose_module_is_missing(dirs):
    root, user = dirs
    write(root, {"tools": [tool(run={"type": "python", "entry": "nowhere:run"})]})
    specs, problems = load_plugin_tools(root, user, trusted=True)
    assert specs == [] and (problems[0].tool, problems[0].field) == ("word_count", "run.entry")
    assert "plugins/nowhere.py" in problems[0].message


def test_bad_mcp_server_entry(dirs):
    root, user = dirs
    write(root, {"mcpServers": {"ok": {"command": "x"}, "bad": {"args": []}, "bad name": {"command": "y"}}})
    _, problems = load_plugin_tools(root, user, trusted=True)
    assert [(p.tool, p.field) for p in problems] == [
        ("bad", "mcpServers.bad"),
        ("bad name", "mcpServers"),
    ]
    assert "needs a `command`" in problems[0].message  # or a `url`: a remote server


def test_published_manifest_schema_matches_the_models():
    """`python scripts/gen_plugin_schema.py` regenerates it."""
    published = (REPO / "plugins" / "moss-tools.schema.json").read_text(encoding="utf-8")
    assert published == render_manifest_schema()


def test_repo_manifest_is_valid_against_models_and_published_schema():
    data = json.loads((REPO / "moss-tools.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(render_manifest_schema()))
    specs, problems = load_plugin_tools(REPO, REPO / "no-user-dir", trusted=True)
    assert problems == []
    assert {s.name for s in specs} >= {"word_count", "find_todos"}
