# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The gateway's fifth sealed set: replies in the text-mode tool formats of coding agents that neither the
call corpus nor the first four sealed sets used, written down before they were sent through any reader
(see SOURCES.md).

Few model families with public parser tests were left after the fourth set, so this set turns to the
agents that ask a model without native tool calling to write its calls as text, and read them back:
Cline and Roo Code (one XML element per tool, one child element per parameter), Continue (a ```tool
block with TOOL_NAME / BEGIN_ARG / END_ARG lines) and OpenHands (`<function=NAME>` with
`<parameter=KEY>` children, no wrapper). All of them are the headline; no reply here comes from a family an
earlier set used, so `SEEN_FAMILY_CASES` is empty. Each entry's `source` names the repository, the file and
the commit it was transcribed from. Rules as in the earlier sets: a reply the source expects to yield calls
gives those calls (name and arguments, in order); a reply the source treats as cut off or malformed must
yield no call and be reported (through the gateway: the model is asked again); prose stays prose, and
where the source says what text remains, that text must remain.
"""

from __future__ import annotations

from typing import Any

from corpus.case import Case

CLINE = "cline/cline src/core/assistant-message/__tests__/parseAssistantMessage.test.ts @ 07db3c8824919afb830007aadd5d2126d4c39c1f"
_ROO = "RooCodeInc/Roo-Code src/core/assistant-message/__tests__/"
ROO_XML = _ROO + "XmlToolCallParser.spec.ts @ f39fad586eb34a04c24bdff06c2684707bff8ae4"
ROO_FALLBACK = _ROO + "XmlToolCallFallbackParser.spec.ts @ 0515625f21c473f28591fb4e9d7848a23648c196"
_CONTINUE = "continuedev/continue core/tools/systemMessageTools/"
CONTINUE = (
    _CONTINUE + "toolCodeblocks/interceptSystemToolCalls.vitest.ts @ 2e544feb843535c52c08a8b55a1d81d8c6aabd16"
)
CONTINUE_COMPLEX = _CONTINUE + "complexToolCall.vitest.ts @ d9e60cffc141fcdc9b946d5eb12a3dc4124c5ac7"
OPENHANDS = "All-Hands-AI/OpenHands tests/unit/llm/test_llm_fncall_converter.py @ 110aebeaa147df76c022eeaf69cda6908c933e37"
OPENHANDS_SDK = "OpenHands/software-agent-sdk tests/sdk/llm/test_llm_fncall_converter.py @ 0d8fbc8067ae19e2edb503747d84bcf49b38fe41"

FAMILIES = {
    CLINE: "cline / roo code (xml tools)",
    ROO_XML: "cline / roo code (xml tools)",
    ROO_FALLBACK: "cline / roo code (xml tools)",
    CONTINUE: "continue (tool codeblocks)",
    CONTINUE_COMPLEX: "continue (tool codeblocks)",
    OPENHANDS: "openhands (function= text calls)",
    OPENHANDS_SDK: "openhands (function= text calls)",
}
"""Each source's format family, as the score table names it."""

# --- Cline: parseAssistantMessage (V1 and V2 share every test) -------------------------------------------------
_CLINE_TOOLS = {
    "read_file": {"path": "string", "start_line": "string", "end_line": "string"},
    "write_to_file": {"path": "string", "content": "string", "line_count": "string"},
    "execute_command": {"command": "string"},
    "search_files": {"regex": "string", "path": "string"},
    "browser_action": {},
}
_TRIM_NOTE = "the source trims parameter values (its whitespace test); the value here is the trimmed one"
_NAMES_NOTE = "the source checks the names; the arguments are the values as written"


def _cline(reply: str, calls: tuple[tuple[str, dict[str, Any]], ...] = (), **kw: Any) -> Case:
    """One reply of the Cline source, offered Cline's tools (every parameter a string)."""
    return Case(CLINE, reply, calls, tools=_CLINE_TOOLS, **kw)


_NESTED_COMMAND = "".join(f'echo "Level {i}" && ' for i in range(10)) + 'echo "Done"'
CLINE_CASES = (
    _cline("This is a simple text message", text="This is a simple text message"),
    _cline(
        "This is a multi-line\ntext message\nwith several lines",
        text="This is a multi-line\ntext message\nwith several lines",
    ),
    _cline("<read_file><path>src/file.ts</path></read_file>", (("read_file", {"path": "src/file.ts"}),)),
    _cline(
        "<read_file><path>src/file.ts</path><start_line>10</start_line><end_line>20</end_line></read_file>",
        (("read_file", {"path": "src/file.ts", "start_line": "10", "end_line": "20"}),),
        note="the source keeps every parameter a string",
    ),
    _cline(
        "<read_file><path>src/file.ts</path>",
        problem=True,
        note="the source marks the tool use partial (never run): the reply is cut off inside the call",
    ),
    _cline(
        "<read_file><path>src/file.ts",
        problem=True,
        note="the source marks the tool use partial (never run): cut off inside a parameter",
    ),
    _cline(
        "Here's the file content: <read_file><path>src/file.ts</path></read_file>",
        (("read_file", {"path": "src/file.ts"}),),
        text="Here's the file content:",
    ),
    _cline(
        "<read_file><path>src/file.ts</path></read_file>Here's what I found in the file.",
        (("read_file", {"path": "src/file.ts"}),),
        text="Here's what I found in the file.",
    ),
    _cline(
        "First file: <read_file><path>src/file1.ts</path></read_file>Second file: <read_file><path>src/file2.ts</path></read_file>",
        (("read_file", {"path": "src/file1.ts"}), ("read_file", {"path": "src/file2.ts"})),
    ),
    _cline(
        "<write_to_file><path>src/file.ts</path><content>\n\tfunction example() {\n\t// This has XML-like content: </content>\n\treturn true;\n\t}\n\t</content><line_count>5</line_count></write_to_file>",
        (
            (
                "write_to_file",
                {
                    "path": "src/file.ts",
                    "content": "function example() {\n\t// This has XML-like content: </content>\n\treturn true;\n\t}",
                    "line_count": "5",
                },
            ),
        ),
        note="a closing </content> inside the content; " + _TRIM_NOTE,
    ),
    _cline(
        "This has a <not_a_tool>malformed tag</not_a_tool>",
        text="This has a <not_a_tool>malformed tag</not_a_tool>",
    ),
    _cline("<browser_action></browser_action>", (("browser_action", {}),)),
    _cline(
        "<execute_command><command>echo '<read_file><path>test.txt</path></read_file>'</command></execute_command>",
        (("execute_command", {"command": "echo '<read_file><path>test.txt</path></read_file>'"}),),
    ),
    _cline(
        "<search_files><regex><div>.*</div></regex><path>src</path></search_files>",
        (("search_files", {"regex": "<div>.*</div>", "path": "src"}),),
    ),
    _cline(
        "<read_file><path>file1.ts</path></read_file><read_file><path>file2.ts</path></read_file>",
        (("read_file", {"path": "file1.ts"}), ("read_file", {"path": "file2.ts"})),
    ),
    _cline(
        "<read_file><path>  src/file.ts  </path></read_file>",
        (("read_file", {"path": "src/file.ts"}),),
        note=_TRIM_NOTE,
    ),
    _cline(
        "I'll help you with that task.\n\n\t<read_file><path>src/index.ts</path></read_file>\n\n\tNow let's modify the file:\n\n\t<write_to_file><path>src/index.ts</path><content>\n\t// Updated content\n\tconsole.log(\"Hello world\");\n\t</content><line_count>2</line_count></write_to_file>\n\n\tLet's run the code:\n\n\t<execute_command><command>node src/index.ts</command></execute_command>",
        (
            ("read_file", {"path": "src/index.ts"}),
            (
                "write_to_file",
                {
                    "path": "src/index.ts",
                    "content": '// Updated content\n\tconsole.log("Hello world");',
                    "line_count": "2",
                },
            ),
            ("execute_command", {"command": "node src/index.ts"}),
        ),
        note=_NAMES_NOTE + "; " + _TRIM_NOTE,
    ),
    _cline(
        "Use the `<read_file>` tool when you need to read a file.",
        text="Use the `<read_file>` tool when you need to read a file.",
    ),
    _cline(
        "Here is an example:\n```\n<read_file>\n<path>demo.txt</path>\n</read_file>\n```",
        text="Here is an example:\n```\n<read_file>\n<path>demo.txt</path>\n</read_file>\n```",
        note="the source: a tool element inside a fenced block is text",
    ),
    _cline("<read_file>\n<path>demo.txt</path>\n</read_file>", (("read_file", {"path": "demo.txt"}),)),
    _cline(
        "Here's a nested code block:\n> ```\n> <read_file><path>test.txt</path></read_file>\n> ```",
        text="Here's a nested code block:\n> ```\n> <read_file><path>test.txt</path></read_file>\n> ```",
    ),
    _cline(
        "This has an escaped \\`<read_file>\\` tag",
        text="This has an escaped \\`<read_file>\\` tag",
    ),
    _cline(
        "```javascript\n<read_file><path>test.txt</path></read_file>",
        text="```javascript\n<read_file><path>test.txt</path></read_file>",
        note="the source: inside a code block that never closes, the element is text",
    ),
    _cline(
        '<read_file class="example"><path>test.txt</path></read_file>',
        text='<read_file class="example"><path>test.txt</path></read_file>',
        note="the source: an element with attributes is not a tool use",
    ),
    _cline(
        "< read_file >< path >test.txt< /path >< /read_file >",
        text="< read_file >< path >test.txt< /path >< /read_file >",
    ),
    _cline(
        "**<read_file>**<path>test.txt</path></read_file>",
        text="**<read_file>**<path>test.txt</path></read_file>",
        note="the source: the opening tag is broken by the bold markers, so the reply is text",
    ),
    _cline(
        "<execute_command><command>" + _NESTED_COMMAND + "</command></execute_command>",
        (("execute_command", {"command": _NESTED_COMMAND}),),
        note=_NAMES_NOTE,
    ),
)

# --- Roo Code: the XML tool-call parser and the fallback parser -------------------------------------------------
_ROO_TOOLS = {
    "read_file": {"path": "string", "files": "array"},
    "execute_command": {"command": "string", "cwd": "string"},
    "write_to_file": {"path": "string", "content": "string"},
    "apply_diff": {"path": "string", "diff": "string"},
    "list_files": {"path": "string", "recursive": "boolean"},
    "search_files": {"path": "string", "regex": "string", "file_pattern": "string"},
    "attempt_completion": {"result": "string"},
    "ask_followup_question": {"question": "string", "follow_up": "array"},
    "switch_mode": {"mode_slug": "string", "reason": "string"},
    "use_mcp_tool": {"server_name": "string", "tool_name": "string", "arguments": "object"},
    "browser_action": {"action": "string", "url": "string"},
    "new_task": {"mode": "string", "message": "string"},
    "codebase_search": {"query": "string", "path": "string"},
}
_BOOL_NOTE = "typed by the declared boolean, as the repository's XML parser gives it (its fallback parser keeps the text)"
_READ_PATH_NOTE = "read_file's path as written (the repository's fallback parser keeps `path`; this parser turns it into its own `files` list)"


def _roo(source: str, reply: str, calls: tuple[tuple[str, dict[str, Any]], ...] = (), **kw: Any) -> Case:
    """One reply of a Roo Code source, offered Roo Code's tools with their declared types."""
    return Case(source, reply, calls, tools=_ROO_TOOLS, **kw)


ROO_XML_CASES = (
    _roo(
        ROO_XML,
        '<read_file>\n<files>[{"path": "src/file.ts"}]</files>\n</read_file>',
        (("read_file", {"files": [{"path": "src/file.ts"}]}),),
    ),
    _roo(
        ROO_XML,
        "<execute_command>\n<command>npm test</command>\n<cwd>./packages/core</cwd>\n</execute_command>",
        (("execute_command", {"command": "npm test", "cwd": "./packages/core"}),),
    ),
    _roo(
        ROO_XML,
        "<write_to_file>\n<path>test.ts</path>\n<content>console.log('hello')</content>\n</write_to_file>",
        (("write_to_file", {"path": "test.ts", "content": "console.log('hello')"}),),
    ),
    _roo(
        ROO_XML,
        "<apply_diff>\n<path>src/file.ts</path>\n<diff>--- a/src/file.ts\n+++ b/src/file.ts\n@@ -1,3 +1,3 @@\n-const x = 1\n+const x = 2</diff>\n</apply_diff>",
        (
            (
                "apply_diff",
                {
                    "path": "src/file.ts",
                    "diff": "--- a/src/file.ts\n+++ b/src/file.ts\n@@ -1,3 +1,3 @@\n-const x = 1\n+const x = 2",
                },
            ),
        ),
        note="the source checks the path and that a diff is there; the diff is the element's text as written",
    ),
    _roo(
        ROO_XML,
        "<list_files>\n<path>src/</path>\n<recursive>true</recursive>\n</list_files>",
        (("list_files", {"path": "src/", "recursive": True}),),
    ),
    _roo(
        ROO_XML,
        "<list_files>\n<path>./</path>\n<recursive>false</recursive>\n</list_files>",
        (("list_files", {"path": "./", "recursive": False}),),
    ),
    _roo(
        ROO_XML,
        "<search_files>\n<path>src/</path>\n<regex>TODO:</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>",
        (("search_files", {"path": "src/", "regex": "TODO:", "file_pattern": "*.ts"}),),
    ),
    _roo(
        ROO_XML,
        "<attempt_completion>\n<result>The task has been completed successfully.</result>\n</attempt_completion>",
        (("attempt_completion", {"result": "The task has been completed successfully."}),),
    ),
    _roo(
        ROO_XML,
        '<ask_followup_question>\n<question>What file would you like me to read?</question>\n<follow_up>[{"text": "src/file.ts"}, {"text": "package.json"}]</follow_up>\n</ask_followup_question>',
        (
            (
                "ask_followup_question",
                {
                    "question": "What file would you like me to read?",
                    "follow_up": [{"text": "src/file.ts"}, {"text": "package.json"}],
                },
            ),
        ),
    ),
    _roo(
        ROO_XML,
        "<switch_mode>\n<mode_slug>code</mode_slug>\n<reason>Need to implement the feature</reason>\n</switch_mode>",
        (("switch_mode", {"mode_slug": "code", "reason": "Need to implement the feature"}),),
    ),
    _roo(
        ROO_XML,
        "I'll first read the file and then execute a command.\n\n<read_file>\n<path>src/file.ts</path>\n</read_file>\n\n<execute_command>\n<command>npm test</command>\n</execute_command>",
        (("read_file", {"path": "src/file.ts"}), ("execute_command", {"command": "npm test"})),
        text="I'll first read the file and then execute a command.",
        note=_READ_PATH_NOTE,
    ),
    _roo(
        ROO_XML,
        "Here's my analysis:\n\n<read_file>\n<path>src/file.ts</path>\n</read_file>\n\nThis should help us understand the code.",
        (("read_file", {"path": "src/file.ts"}),),
        note=_READ_PATH_NOTE + "; the source checks that both sentences remain",
    ),
    _roo(
        ROO_XML,
        "<write_to_file>\n<path>test.ts</path>\n<content><![CDATA[const x = 1; // This <should> work]]></content>\n</write_to_file>",
        (("write_to_file", {"path": "test.ts", "content": "const x = 1; // This <should> work"}),),
    ),
    _roo(
        ROO_XML,
        "This is just plain text without any tool calls.",
        text="This is just plain text without any tool calls.",
    ),
    _roo(
        ROO_XML,
        "<read_file><path>file1.ts</path></read_file>\n<read_file><path>file2.ts</path></read_file>",
        (("read_file", {"path": "file1.ts"}), ("read_file", {"path": "file2.ts"})),
        note=_READ_PATH_NOTE,
    ),
    _roo(
        ROO_XML,
        "<attempt_completion>\n<result></result>\n</attempt_completion>",
        (("attempt_completion", {"result": ""}),),
    ),
    _roo(
        ROO_XML,
        '<use_mcp_tool>\n<server_name>my-server</server_name>\n<tool_name>my-tool</tool_name>\n<arguments>{"key": "value"}</arguments>\n</use_mcp_tool>',
        (
            (
                "use_mcp_tool",
                {"server_name": "my-server", "tool_name": "my-tool", "arguments": {"key": "value"}},
            ),
        ),
        note="typed by the declared object, as this parser gives it (the fallback parser keeps the JSON text)",
    ),
    _roo(
        ROO_XML,
        "<browser_action>\n<action>launch</action>\n<url>https://example.com</url>\n</browser_action>",
        (("browser_action", {"action": "launch", "url": "https://example.com"}),),
    ),
    _roo(
        ROO_XML,
        "<new_task>\n<mode>architect</mode>\n<message>Design the new feature</message>\n</new_task>",
        (("new_task", {"mode": "architect", "message": "Design the new feature"}),),
    ),
    _roo(
        ROO_XML,
        "```\n<read_file><path>src/file.ts</path></read_file>\n```",
        text="```\n<read_file><path>src/file.ts</path></read_file>\n```",
        note="the source: tool markup inside a code block is not a call",
    ),
    _roo(
        ROO_XML,
        "Use `<read_file><path>src/file.ts</path></read_file>` to read files",
        text="Use `<read_file><path>src/file.ts</path></read_file>` to read files",
        note="the source: tool markup inside inline code is not a call",
    ),
    _roo(
        ROO_XML,
        "<div>Hello</div><span>World</span>",
        text="<div>Hello</div><span>World</span>",
    ),
)

ROO_FALLBACK_CASES = (
    _roo(
        ROO_FALLBACK,
        "I'll help you with that task. Let me think about the best approach.",
        text="I'll help you with that task. Let me think about the best approach.",
    ),
    _roo(
        ROO_FALLBACK,
        "Let me read the file first.\n\n<read_file>\n<path>src/main.ts</path>\n</read_file>",
        (("read_file", {"path": "src/main.ts"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "I'll read both files.\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>\n\nNow let me also check the other file.\n\n<read_file>\n<path>src/b.ts</path>\n</read_file>",
        (("read_file", {"path": "src/a.ts"}), ("read_file", {"path": "src/b.ts"})),
    ),
    _roo(
        ROO_FALLBACK,
        "<execute_command>\n<command>npm test</command>\n</execute_command>",
        (("execute_command", {"command": "npm test"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<search_files>\n<path>src</path>\n<regex>function\\s+\\w+</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>",
        (("search_files", {"path": "src", "regex": "function\\s+\\w+", "file_pattern": "*.ts"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>",
        (("list_files", {"path": "src", "recursive": True}),),
        note=_BOOL_NOTE,
    ),
    _roo(
        ROO_FALLBACK,
        "<attempt_completion>\n<result>I've completed the task successfully.</result>\n</attempt_completion>",
        (("attempt_completion", {"result": "I've completed the task successfully."}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<apply_diff>\n<path>src/main.ts</path>\n<diff><<<<<<< SEARCH\n:start_line:1\n-------\nold content\n=======\nnew content\n>>>>>>> REPLACE</diff>\n</apply_diff>",
        (
            (
                "apply_diff",
                {
                    "path": "src/main.ts",
                    "diff": "<<<<<<< SEARCH\n:start_line:1\n-------\nold content\n=======\nnew content\n>>>>>>> REPLACE",
                },
            ),
        ),
        note="the source checks the path and the SEARCH / REPLACE markers; the diff is the element's text as written",
    ),
    _roo(
        ROO_FALLBACK,
        "<environment_details>\nVS Code version: 1.107.1\n</environment_details>\n\n<thinking>\nLet me analyze the situation.\n</thinking>",
        note="the source: elements that are not tools are no call; the text is not judged (a server may take the thinking element as reasoning)",
    ),
    _roo(
        ROO_FALLBACK,
        "First, I'll check the directory. <list_files><path>.</path><recursive>false</recursive></list_files> That should give us what we need.",
        (("list_files", {"path": ".", "recursive": False}),),
        note=_BOOL_NOTE,
    ),
    _roo(
        ROO_FALLBACK,
        "<read_file><path>a.ts</path></read_file>\n<read_file><path>b.ts</path></read_file>",
        (("read_file", {"path": "a.ts"}), ("read_file", {"path": "b.ts"})),
        note="the source checks two calls with their own ids; " + _NAMES_NOTE,
    ),
    _roo(
        ROO_FALLBACK,
        "<ask_followup_question>\n<question>Which file would you like me to modify?</question>\n</ask_followup_question>",
        (("ask_followup_question", {"question": "Which file would you like me to modify?"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<switch_mode>\n<mode_slug>architect</mode_slug>\n<reason>Need to design the solution first</reason>\n</switch_mode>",
        (("switch_mode", {"mode_slug": "architect", "reason": "Need to design the solution first"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<new_task>\n<mode>code</mode>\n<message>Implement the feature</message>\n</new_task>",
        (("new_task", {"mode": "code", "message": "Implement the feature"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<execute_command>\n<command>ls -la</command>\n<cwd>/home/user/project</cwd>\n</execute_command>",
        (("execute_command", {"command": "ls -la", "cwd": "/home/user/project"}),),
    ),
    _roo(
        ROO_FALLBACK,
        "<codebase_search>\n<query>authentication middleware</query>\n<path>src</path>\n</codebase_search>",
        (("codebase_search", {"query": "authentication middleware", "path": "src"}),),
    ),
)

# --- Continue: the ```tool block of its system-message tools ------------------------------------------------------
_CHUNKS_NOTE = "the source streams the reply in chunks; the reply is their concatenation"
CONTINUE_CASES = (
    Case(
        CONTINUE,
        "I'll help you with that. Let me use a tool:\n```tool\nTOOL_NAME: test_tool\nBEGIN_ARG: arg1\nvalue1\nEND_ARG\n```",
        (("test_tool", {"arg1": "value1"}),),
        text="I'll help you with that. Let me use a tool:",
        tools={"test_tool": {"arg1": "string"}},
        note=_CHUNKS_NOTE,
    ),
    Case(
        CONTINUE,
        "I'll help you with that.\nTOOL_NAME: test_tool\nBEGIN_ARG: arg1\nvalue1\nEND_ARG\n",
        (("test_tool", {"arg1": "value1"}),),
        text="I'll help you with that.",
        tools={"test_tool": {"arg1": "string"}},
        note="the TOOL_NAME form without its ```tool fence; " + _CHUNKS_NOTE,
    ),
    Case(
        CONTINUE,
        "```tool\nTOOL_NAME: test_tool\nBEGIN_ARG: arg1\nvalue1\nEND_ARG\n```\nThis content should be preserved",
        (("test_tool", {"arg1": "value1"}),),
        text="This content should be preserved",
        tools={"test_tool": {"arg1": "string"}},
        note=_CHUNKS_NOTE,
    ),
    Case(
        CONTINUE,
        "```tool\nTOOL_NAME: first_tool\nBEGIN_ARG: arg1\nvalue1\nEND_ARG\n```\nNow running another tool.\n```tool\nTOOL_NAME: second_tool\nBEGIN_ARG: arg2\nvalue2\nEND_ARG\n```",
        (("first_tool", {"arg1": "value1"}), ("second_tool", {"arg2": "value2"})),
        text="Now running another tool.",
        tools={"first_tool": {"arg1": "string"}, "second_tool": {"arg2": "string"}},
        note="the source checks the two names and the text between; " + _CHUNKS_NOTE,
    ),
    Case(
        CONTINUE,
        "```tool\nTOOL_NAME: test_tool\nBEGIN_ARG: number_arg\n123\nEND_ARG\nBEGIN_ARG: boolean_arg\ntrue\nEND_ARG\n```",
        (("test_tool", {"number_arg": 123, "boolean_arg": True}),),
        tools={"test_tool": {"number_arg": "integer", "boolean_arg": "boolean"}},
        note="the source reads each value as JSON when it can; " + _CHUNKS_NOTE,
    ),
    Case(
        CONTINUE,
        "```tool\nTOOL_NAME: test_tool\n",
        problem=True,
        tools={"test_tool": {"arg1": "string"}},
        note="the source's stream stops here (aborted) and nothing is run; as a whole reply it is cut off inside the call",
    ),
    Case(
        CONTINUE_COMPLEX,
        '```tool\nTOOL_NAME: test_tool\nBEGIN_ARG: json_array\n["first item", "second \\"quoted\\" item", "third\\nitem"]\nEND_ARG\n```',
        (("test_tool", {"json_array": ["first item", 'second "quoted" item', "third\nitem"]}),),
        tools={"test_tool": {"json_array": "array"}},
        note="the source takes the value as the list or as its JSON text; the tool declares an array, so the list",
    ),
)

# --- OpenHands: the text-mode function calls of its non-native calling (<function=…> / <parameter=…>) -----------
_OH_TOOLS = {
    "execute_bash": {"command": "string"},
    "finish": {},
    "str_replace_editor": {
        "command": "string",
        "path": "string",
        "file_text": "string",
        "old_str": "string",
        "new_str": "string",
        "insert_line": "integer",
        "view_range": "array",
    },
}
_RENDER_NOTE = "the source's rendering of this call into the text form (its parser is the inverse): the call it was rendered from"
OPENHANDS_CASES = (
    Case(
        OPENHANDS,
        "I'll help you implement the necessary changes to meet the requirements. Let's follow the steps:\n\n1. First, let's explore the repository structure:\n\n<function=execute_bash>\n<parameter=command>ls -la /workspace/astropy__astropy__5.1</parameter>\n</function>",
        (("execute_bash", {"command": "ls -la /workspace/astropy__astropy__5.1"}),),
        text="I'll help you implement the necessary changes to meet the requirements. Let's follow the steps:\n\n1. First, let's explore the repository structure:",
        tools=_OH_TOOLS,
    ),
    Case(
        OPENHANDS,
        "I see there's a symlink. Let's explore the actual directory:\n\n<function=execute_bash>\n<parameter=command>ls -la /testbed</parameter>\n</function>",
        (("execute_bash", {"command": "ls -la /testbed"}),),
        text="I see there's a symlink. Let's explore the actual directory:",
        tools=_OH_TOOLS,
    ),
    Case(
        OPENHANDS,
        "Let's look at the source code file mentioned in the PR description:\n\n<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/testbed/astropy/io/fits/card.py</parameter>\n</function>",
        (("str_replace_editor", {"command": "view", "path": "/testbed/astropy/io/fits/card.py"}),),
        text="Let's look at the source code file mentioned in the PR description:",
        tools=_OH_TOOLS,
    ),
    Case(
        OPENHANDS,
        'Let me search for the `_format_float` method mentioned in the PR description:\n\n<function=execute_bash>\n<parameter=command>grep -n "_format_float" /testbed/astropy/io/fits/card.py</parameter>\n</function>',
        (("execute_bash", {"command": 'grep -n "_format_float" /testbed/astropy/io/fits/card.py'}),),
        text="Let me search for the `_format_float` method mentioned in the PR description:",
        tools=_OH_TOOLS,
        note="the source's stand-in for the model's reply in its inference test",
    ),
    Case(
        OPENHANDS,
        "<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/test/file.py</parameter>\n<parameter=view_range>[1, 10]</parameter>\n</function>",
        (("str_replace_editor", {"command": "view", "path": "/test/file.py", "view_range": [1, 10]}),),
        tools=_OH_TOOLS,
        note=_RENDER_NOTE,
    ),
    Case(
        OPENHANDS,
        '<function=str_replace_editor>\n<parameter=command>str_replace</parameter>\n<parameter=path>/test/file.py</parameter>\n<parameter=old_str>\ndef example():\n    pass\n</parameter>\n<parameter=new_str>\ndef example():\n    # This is indented\n    print("hello")\n    return True\n</parameter>\n</function>',
        (
            (
                "str_replace_editor",
                {
                    "command": "str_replace",
                    "path": "/test/file.py",
                    "old_str": "def example():\n    pass",
                    "new_str": 'def example():\n    # This is indented\n    print("hello")\n    return True',
                },
            ),
        ),
        tools=_OH_TOOLS,
        note=_RENDER_NOTE + "; a multi-line value is written between newlines, and its indentation is kept",
    ),
    Case(
        OPENHANDS_SDK,
        "I'll run the ls command for you.\n\n<function=terminal>\n<parameter=command>ls</parameter>\n</function>",
        (("terminal", {"command": "ls"}),),
        tools={"terminal": {"command": "string"}, "finish": {}},
        note=_NAMES_NOTE,
    ),
)

CASES: tuple[Case, ...] = (
    *CLINE_CASES,
    *ROO_XML_CASES,
    *ROO_FALLBACK_CASES,
    *CONTINUE_CASES,
    *OPENHANDS_CASES,
)
"""The headline: replies of formats no earlier set and not the corpus used."""

SEEN_FAMILY_CASES: tuple[Case, ...] = ()
"""No reply of this set comes from a family an earlier set or the corpus used."""
