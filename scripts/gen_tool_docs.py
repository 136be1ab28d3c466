"""Write `docs/tools.md`: every built-in and extension tool with its class, its schema (locale en) and an
example call. The schemas come from the code; the examples are kept here.

python scripts/gen_tool_docs.py            regenerate the page
python scripts/gen_tool_docs.py --check    exit 1 when the page differs from what the code gives
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from asi_agent.subagents import BUILTIN, listed_task_spec
from asi_agent.tools.catalog import extension_spec
from asi_agent.tools.registry import ToolRegistry, default_registry
from asi_agent.tools.schema import tool_schema

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tools.md"

EXAMPLES: dict[str, dict[str, Any]] = {
    "codebase_search": {"query": "where the session transcript is written", "limit": 5},
    "read_file": {"path": "src/app.py", "startLine": 40, "endLine": 80},
    "replace_lines": {"path": "src/app.py", "startLine": 12, "endLine": 13, "newText": "    return a + b"},
    "insert_line": {"path": "src/app.py", "line": 1, "text": "import os"},
    "delete_lines": {"path": "src/app.py", "startLine": 30, "endLine": 34},
    "replace_text": {"path": "src/app.py", "oldText": "return a - b", "newText": "return a + b"},
    "list_directory": {"path": "src", "recursive": True, "fileType": "py"},
    "get_project_structure": {},
    "get_cursor_context": {"linesBefore": 10, "linesAfter": 10},
    "create_file": {"path": "tests/test_add.py", "content": "from app import add\n"},
    "delete_file": {"path": "old_notes.txt"},
    "grep_search": {"pattern": "def add\\(", "fileType": "py"},
    "file_search": {"pattern": "config", "fuzzy": True},
    "find_code_location": {"search": "ToolRegistry", "searchType": "class", "findReferences": True},
    "run_terminal_cmd": {"command": "python -m pytest -q", "cwd": "."},
    "reapply": {"index": 0},
    "diff_history": {"path": "src/app.py", "limit": 3},
    "lint_check": {"path": "src/app.py"},
    "refactor": {"path": "src/app.py", "refactorType": "readability", "preview": True},
    "run_tests": {"testFile": "tests/test_add.py"},
    "generate_tests": {"path": "src/app.py", "testFramework": "pytest"},
    "fix_tests": {"testFile": "tests/test_add.py"},
    "moss_register_plugin_tool": {
        "name": "word_count",
        "description": "Count the words of a text file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "run": {"type": "command", "command": ["python3", "plugins/wc.py"]},
        "risk": "read",
    },
    "moss_update_asi_user_prompt": {"content": "Answer in English.", "mode": "append", "scope": "project"},
    "todo_write": {
        "todos": [
            {"id": "1", "content": "Read the failing test", "status": "completed"},
            {"id": "2", "content": "Fix the parser", "status": "in_progress"},
            {"id": "3", "content": "Run the tests", "status": "pending"},
        ]
    },
    "save_memory": {"fact": "The tests run with `make check`.", "scope": "project"},
    "web_fetch": {"url": "https://github.com/org/repo/blob/main/README.md", "prompt": "How is it installed?"},
    "web_search": {"query": "httpx AsyncClient timeout"},
    "execute_skill": {"skill_id": "release-notes", "parameters": {"version": "2.1.0"}},
    "task": {
        "description": "Find the config loader",
        "prompt": "Find where the configuration files are read and list their paths with line numbers.",
        "subagent_type": "explore",
    },
}

INTRO = """# Tools

Every tool asi-agent offers the model, with its permission class (`read`, `write`, `execute`, `network`:
see [Configuration](configuration.md)), the schema the model is given (locale `en`; the spec's Chinese
texts are locale `zh`) and an example call. This page is generated from the code by
`python scripts/gen_tool_docs.py`; a test fails when it drifts.

The first 24 are the ASI tools: the 22 of the spec (§3.4, exact names and schemas) and its two `moss_*`
tools (§3.3); `tools = "asi"` in the configuration offers exactly these (the default of `asi-agent eval`
and `asi-agent data export`). The **extension** tools come after them, marked `extension` by `asi-agent
tools`: the first four are offered by default and routed like plugins when many tools are registered;
`execute_skill` is offered when a skill is found ([Skills](skills.md)) and `task` while children may
start ([Subagents](subagents.md)), both always sent.

| tool | class | source |
|---|---|---|
"""

NOTES: dict[str, str] = {
    "read_file": "A PDF is read as text, its `startLine`/`endLine` selecting pages (20 at most at once). An "
    "image (PNG, JPEG, GIF, WebP up to 5 MiB) is returned to a model that reads images: OpenAI `image_url` "
    "parts (in a user turn after the results), Ollama `images`, Anthropic image blocks; a model that does "
    "not (the embedded one) gets its description and a note that it cannot see it. An image counts in the "
    "context window at its API's per-image cost, and older ones are left out first when the window fills up "
    "(see [Long sessions](headless.md#images-in-the-window)). A long file is read in "
    "ranges: the result ends with the `startLine` to read on from.",
    "replace_text": "When `oldText` is not found exactly, a unique match differing only in indentation, "
    "trailing whitespace or line ends is applied; then one with its backslash escapes read as text; then "
    "(unless `edit_correction = false`; off for the embedded and scripted models) one model call may "
    "correct `oldText`. The result says what was corrected, and the JSON result counts `corrected_edits`.",
    "run_terminal_cmd": "Output too long to send whole is summarised by the model (unless "
    "`output_summary = false`; off for the embedded and scripted models), with its last lines and the path "
    "of the full log in `.asi/outputs/`.",
    "todo_write": "The list replaces the previous one; at most one task `in_progress`, ids unique. It is "
    "shown in the chat's todo panel, sent to editors as the ACP plan, printed whole in line mode and "
    "carried in the JSON result (`todos`). In `plan` mode the plan is written with it, and then handed off "
    "(see [The chat](chat.md)).",
    "save_memory": "Appends `- fact` under `## asi-agent memories` (the heading is added when missing) of "
    "the project's `AGENTS.md` (scope `project`: a journaled write, undoable) or of `USER_PROMPT.md` in the "
    "user configuration folder (scope `global`: outside the project, so it asks in every mode). Both files "
    "are read into the system prompt at every start.",
    "web_fetch": "An HTTP(S) GET with `[web]`'s timeout and byte cap; GitHub and GitLab file pages are "
    "fetched raw; HTML becomes Markdown (markdownify) whose links and images are absolute against the URL "
    "the page finally came from (after redirects, or its `<base href>`), a PDF its text. Loopback, private, "
    "link-local (cloud "
    "metadata), shared and reserved addresses are refused after DNS resolution and after every redirect "
    "unless `web.allow_private_hosts = true` or the `host:port` is in `web.allowed_hosts`. A page longer "
    "than `web.max_chars` is read by the model with `prompt`, and the answer keeps the source URL. It is a "
    "`network` call: it asks unless the network is allowed (`--allow-network`, `network = true`).",
    "web_search": "The backend is `[web] search`: `searxng` (with `search_url`), `tavily` or `brave` (with "
    "`search_api_key` or `TAVILY_API_KEY` / `BRAVE_API_KEY`). Without one the model is told the search is "
    "not configured and how the person can configure it.",
}


def all_tools() -> ToolRegistry:
    """Every tool of the page: the built-ins, the extensions offered by default, `execute_skill` and
    `task` (described with the built-in agents)."""
    registry = default_registry(extensions=True, locale="en")
    registry.register(extension_spec("execute_skill"))
    registry.register(listed_task_spec(dict(BUILTIN)))
    return registry


def render() -> str:
    """The whole page."""
    registry = all_tools()
    rows = [f"| [`{spec.name}`](#{spec.name}) | {spec.risk} | {spec.source} |" for spec in registry.specs()]
    parts = [INTRO + "\n".join(rows)]
    for spec in registry.specs():
        function = tool_schema(spec, "en")["function"]
        section = [f"## `{spec.name}`", "", f"Class `{spec.risk}`, {spec.source}. {function['description']}"]
        if spec.name in NOTES:
            section += ["", NOTES[spec.name]]
        section += ["", "```json", json.dumps(function["parameters"], indent=2, ensure_ascii=False), "```"]
        example = json.dumps({"name": spec.name, "arguments": EXAMPLES[spec.name]}, ensure_ascii=False)
        section += ["", "Example call:", "", "```json", example, "```"]
        parts.append("\n".join(section))
    return "\n\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report drift instead of writing")
    options = parser.parse_args(argv)
    text = render()
    if options.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.is_file() else ""
        if current != text:
            print(f"drifted: {PAGE} (run python scripts/gen_tool_docs.py)")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
