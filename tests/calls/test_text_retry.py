"""Text-mode replies asked again: refusals, narrated calls, unreadable calls and missing ones."""

from __future__ import annotations

import pytest

from asi_agent.calls import ParsedReply, detect_refusal, parse_reply, retry_reason

# --- refusals ---------------------------------------------------------------------------------------

REFUSALS = [
    "I can't access your files.",
    "I'm sorry, but I cannot access your local file system.",
    "I am unable to execute commands on your machine.",
    "As an AI, I don't have the ability to modify files.",
    "As a language model, I can only give advice.",
    "I'm just a language model and can't browse the web.",
    "I don't have access to your files, but here is how you could do it.",
    "Unfortunately tools are unavailable in this conversation.",
    "I have no access to your repository.",
    "Please run this yourself and tell me what happens.",
    "Run the tests yourself, then paste the output here.",
    "Could you send me the contents of main.py?",
    "I cannot run commands directly.",
    "我无法访问你的文件系统。",
    "抱歉，我不能直接修改你的代码。",
    "作为一个AI语言模型，我没有权限读取本地文件。",
    "我没有权限执行命令。",
    "我无法直接运行测试，请你自己运行 pytest。",
    "目前工具不可用，请手动检查。",
    "请把输出粘贴给我。",
]

LEGITIMATE = [
    "I fixed the off-by-one error in src/app.py.\nAGENT_STATUS: DONE",
    "I can't find any caller of parse_config; it looks unused.\nAGENT_STATUS: DONE",
    "The test cannot access the network, so I stubbed the HTTP server with a local one.",
    "All 42 tests pass now.",
    "Python lists are dynamic arrays; appending is amortised O(1).",
    "The function returns None when the file is missing.",
    "I couldn't reproduce the crash with the given input; the parser handles it.",
    "This module sends the results to the server over HTTPS.",
    "You can run the app with `python -m app` once the fix is in.",
    "Changed 3 files: a.py, b.py and c.py.",
    "The AI module in src/ai.py needed a new constructor argument.",
    "没有找到 parse_config 的调用者，它可能已不再使用。",
    "已修复 src/app.py 中的越界错误，所有测试通过。\nAGENT_STATUS: DONE",
    "这个函数在文件不存在时返回 None。",
    "我已经把重复的代码提取成了一个辅助函数。",
    "The bug was that the loop did not check for an empty list.",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_detected(text):
    signal = detect_refusal(text)
    assert signal
    assert signal.lower() in " ".join(text.lower().split())


@pytest.mark.parametrize("text", LEGITIMATE)
def test_legitimate_answers_are_not_refusals(text):
    assert detect_refusal(text) is None


def test_curly_apostrophes_count_as_apostrophes():
    assert detect_refusal("I can’t access your files") == "I can't access"


# --- retries ----------------------------------------------------------------------------------------


def decide(text: str, *, expect_call: bool = False) -> str | None:
    return retry_reason(text, parse_reply(text), expect_call=expect_call)


def test_a_reply_with_a_call_is_never_retried():
    text = 'I cannot access files, but: [TOOL_CALL]read_file[ARGS]{"path": "a"}'
    assert decide(text, expect_call=True) is None


def test_unparsable_call_is_retried_with_the_problem():
    reason = decide("[TOOL_CALL]read_file[ARGS][1]")
    assert reason is not None
    assert reason.startswith("unparsable call: Could not parse the tool call")


def test_refusal_is_retried_even_with_a_status_line():
    assert decide("I don't have access to your files.\nAGENT_STATUS: STOP") == "refusal: I don't have access"


@pytest.mark.parametrize(
    "text",
    [
        "工具执行：read_file(path='a.py')\n结果：文件内容如下……\nAGENT_STATUS: DONE",
        "我将调用 read_file 读取 src/app.py。",
        "现在调用工具读取文件。",
        "I will now call read_file with the path src/app.py.",
        "Let me use the grep_search tool to find it.",
        "Calling `list_directory` on the project root.",
        'read_file(path="src/app.py")',
        'Action: read_file\nAction Input: {"path": "a.py"}',
        "[TOOL_RESULT read_file id=x]\nfake content\n[/TOOL_RESULT]\nAGENT_STATUS: DONE",
        "I simulated the tool call and the file looks fine.\nAGENT_STATUS: DONE",
    ],
)
def test_narrated_calls_are_retried(text):
    assert decide(text) == "narrated call"


def test_code_mentions_in_a_final_answer_are_not_narration():
    text = 'The bug was in `parse_reply("x")`; I fixed it.\nAGENT_STATUS: DONE'
    assert decide(text, expect_call=True) is None


def test_no_call_is_retried_only_when_a_call_is_expected():
    assert decide("Let me think about it.", expect_call=True) == "no call"
    assert decide("Let me think about it.", expect_call=False) is None
    assert decide("Done.\nAGENT_STATUS: DONE", expect_call=True) is None


def test_plain_final_answer_is_fine():
    assert retry_reason("The answer is 4.", ParsedReply("The answer is 4."), expect_call=False) is None
