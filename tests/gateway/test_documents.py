"""Documents through `asi-agent serve`: an Anthropic `document` block (a base64 PDF, a text or a content
source; also inside a `tool_result`), a Chat Completions `file` part and a Responses `input_file` reach the
upstream as text in their place, between a header naming the document and a closing line; a URL or a
stored file, bad base64, a PDF without text and a document over a limit get a 400 in the client's API
naming the field, and nothing goes upstream. Checked on what the fake upstream received, with the
official SDKs."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest
from servers.anthropic_server import AnthropicServer
from servers.anthropic_server import Reply as ClaudeReply

from gateway.conftest import Gateway, claude_client, final_message, final_response, openai_client
from gateway.test_anthropic_sdk import READ as CLAUDE_READ
from gateway.test_openai_sdk import READ


def pdf(*pages: str) -> bytes:
    """A small valid PDF whose pages each show one line of text (an empty string: a page with no text)."""
    kids = " ".join(f"{4 + 2 * n} 0 R" for n in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for n, text in enumerate(pages):
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode() if text else b""
        resources = "/Resources << /Font << /F1 3 0 R >> >>"
        page = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {resources} /Contents {5 + 2 * n} 0 R >>"
        )
        objects += [page.encode(), b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref, size = len(out), len(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


REPORT = base64.b64encode(pdf("Revenue grew by 12 percent", "Costs fell in March")).decode()
REPORT_URL = f"data:application/pdf;base64,{REPORT}"
SCAN = base64.b64encode(pdf("")).decode()
REPORT_SEEN = (
    "[DOCUMENT 'report.pdf' (PDF, 2 pages)]\n--- page 1 ---\nRevenue grew by 12 percent\n"
    "--- page 2 ---\nCosts fell in March\n[END OF DOCUMENT 'report.pdf']"
)


def sent_text(gateway: Gateway) -> str:
    """Everything the last upstream request carried as message text, joined."""
    return "\n".join(str(m["content"]) for m in gateway.upstream.chat_bodies[-1]["messages"])


def pdf_block(data: str = REPORT, **more: Any) -> dict[str, Any]:
    """An Anthropic document block of a base64 PDF titled report.pdf."""
    source = {"type": "base64", "media_type": "application/pdf", "data": data}
    return {"type": "document", "title": "report.pdf", "source": source, **more}


@pytest.mark.parametrize("stream", [False, True])
def test_an_anthropic_pdf_document_reaches_the_upstream_as_text(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply("Revenue is up.")
    block = pdf_block(context="The board's quarterly summary", citations={"enabled": True})
    ask = [{"role": "user", "content": [block, {"type": "text", "text": "Summarize this."}]}]
    final = final_message(claude_client(gateway.url), stream=stream, model="m", max_tokens=64, messages=ask)
    assert final.content[0].text == "Revenue is up."  # type: ignore[union-attr]
    (asked,) = gateway.upstream.chat_bodies[-1]["messages"]
    header, context, rest = asked["content"].split("\n", 2)
    assert header == "[DOCUMENT 'report.pdf' (PDF, 2 pages)]"
    assert context == "Context: The board's quarterly summary"
    assert rest.endswith("Costs fell in March\n[END OF DOCUMENT 'report.pdf']\nSummarize this.")
    assert "--- page 1 ---\nRevenue grew by 12 percent\n--- page 2 ---" in rest


def test_a_pdf_document_in_a_tool_result_stays_in_the_framed_result(gateway: Gateway) -> None:
    gateway.upstream.reply("It is a report.")
    history: list[Any] = [
        {"role": "user", "content": "Read report.pdf"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "report.pdf"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                {"type": "text", "text": "report.pdf follows"}, pdf_block(),
            ]},
        ]},
    ]  # fmt: skip
    claude_client(gateway.url).messages.create(
        model="m", max_tokens=64, messages=history, tools=[CLAUDE_READ]
    )  # type: ignore[arg-type,list-item]
    framed = f"[TOOL_RESULT read_file id=toolu_1]\nreport.pdf follows\n{REPORT_SEEN}\n[/TOOL_RESULT]"
    assert framed in sent_text(gateway)


def test_text_and_content_documents_reach_the_upstream(gateway: Gateway) -> None:
    gateway.upstream.reply("Two notes.")
    notes = {"type": "text", "media_type": "text/plain", "data": "Buy milk.\nCall Ann."}
    parts = {
        "type": "content",
        "content": [{"type": "text", "text": "Part one."}, {"type": "text", "text": "Part two."}],
    }
    ask = [{"role": "user", "content": [
        {"type": "document", "title": "notes.txt", "source": notes},
        {"type": "document", "source": parts},
        {"type": "text", "text": "What do they say?"},
    ]}]  # fmt: skip
    claude_client(gateway.url).messages.create(model="m", max_tokens=64, messages=ask)  # type: ignore[arg-type]
    assert sent_text(gateway) == (
        "[DOCUMENT 'notes.txt' (text)]\nBuy milk.\nCall Ann.\n[END OF DOCUMENT 'notes.txt']\n"
        "[DOCUMENT (text)]\nPart one.\nPart two.\n[END OF DOCUMENT]\nWhat do they say?"
    )


def test_a_chat_completions_file_part_reaches_the_upstream(gateway: Gateway) -> None:
    gateway.upstream.reply("Revenue is up.")
    ask = [{"role": "user", "content": [
        {"type": "text", "text": "Summarize:"},
        {"type": "file", "file": {"file_data": REPORT_URL, "filename": "report.pdf"}},
    ]}]  # fmt: skip
    reply = openai_client(gateway).chat.completions.create(model="m", messages=ask, tools=[READ])  # type: ignore[arg-type,list-item]
    assert reply.choices[0].message.content == "Revenue is up."
    assert f"Summarize:\n{REPORT_SEEN}" in sent_text(gateway)


@pytest.mark.parametrize("stream", [False, True])
def test_responses_input_files_reach_the_upstream(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply("Both read.")
    listing = base64.b64encode(b"alpha\nbeta\n").decode()
    items: list[Any] = [
        {"role": "user", "content": [
            {"type": "input_text", "text": "Read these."},
            {"type": "input_file", "filename": "report.pdf", "file_data": REPORT_URL},
        ]},
        {"type": "function_call", "call_id": "call_9", "name": "read_file", "arguments": '{"path": "l.txt"}'},
        {"type": "function_call_output", "call_id": "call_9", "output": [
            {"type": "input_file", "filename": "l.txt", "file_data": f"data:text/plain;base64,{listing}"},
        ]},
    ]  # fmt: skip
    tool = {"type": "function", **READ["function"]}  # type: ignore[dict-item]
    final = final_response(openai_client(gateway), stream=stream, model="m", input=items, tools=[tool])
    assert final.output_text == "Both read."
    sent = sent_text(gateway)
    assert f"Read these.\n{REPORT_SEEN}" in sent
    assert "[DOCUMENT 'l.txt' (text)]\nalpha\nbeta\n[END OF DOCUMENT 'l.txt']" in sent


ANTHROPIC_REFUSED: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "url": (
        lambda: {"type": "document", "source": {"type": "url", "url": "https://docs.example.test/a.pdf"}},
        "the gateway never fetches",
    ),
    "bad-base64": (lambda: pdf_block("@@not-base64@@"), "not valid base64"),
    "scanned": (lambda: pdf_block(SCAN), "the PDF has no text to extract"),
    "long-text": (
        lambda: {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "a" * 500_001},
        },
        "over the document text limit of 500,000 characters",
    ),
    "not-a-pdf": (lambda: pdf_block(base64.b64encode(b"%PDF-1.4 broken").decode()), "the PDF cannot be read"),
}


@pytest.mark.parametrize("case", list(ANTHROPIC_REFUSED))
def test_documents_the_gateway_cannot_read_are_refused_in_the_anthropic_shape(
    gateway: Gateway, case: str
) -> None:
    make, said = ANTHROPIC_REFUSED[case]
    ask = [{"role": "user", "content": [{"type": "text", "text": "Read it."}, make()]}]
    with pytest.raises(anthropic.BadRequestError) as caught:
        claude_client(gateway.url).messages.create(model="m", max_tokens=64, messages=ask)  # type: ignore[arg-type]
    assert caught.value.status_code == 400
    assert said in str(caught.value) and "messages[0].content[1]" in str(caught.value)
    assert caught.value.body["error"]["type"] == "invalid_request_error"  # type: ignore[index]
    assert gateway.upstream.chat_bodies == []


OPENAI_REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "file-id": ({"type": "file", "file": {"file_id": "file-abc"}}, "a file given by file_id cannot be read"),
    "bad-base64": (
        {"type": "file", "file": {"file_data": "data:application/pdf;base64,@@"}},
        "not valid base64",
    ),
    "scanned": ({"type": "file", "file": {"file_data": SCAN}}, "the PDF has no text to extract"),
    "not-a-base64-url": (
        {"type": "file", "file": {"file_data": "data:text/plain,plain words"}},
        "must be data:<type>;base64,<data>",
    ),
    "binary": (
        {"type": "file", "file": {"file_data": base64.b64encode(b"\xff\xfe\x00\x81").decode()}},
        "neither a PDF nor UTF-8 text",
    ),
}


@pytest.mark.parametrize("case", list(OPENAI_REFUSED))
def test_chat_completions_file_parts_the_gateway_cannot_read_are_refused(gateway: Gateway, case: str) -> None:
    part, said = OPENAI_REFUSED[case]
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client(gateway).chat.completions.create(
            model="m", messages=[{"role": "user", "content": [part]}]
        )  # type: ignore[list-item,misc]
    assert caught.value.status_code == 400
    assert said in str(caught.value) and "messages[0].content[0]" in str(caught.value)
    assert gateway.upstream.chat_bodies == []


def test_a_responses_file_url_is_never_fetched(gateway: Gateway) -> None:
    part = {"type": "input_file", "file_url": "http://127.0.0.1:9/secret.pdf"}
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client(gateway).responses.create(model="m", input=[{"role": "user", "content": [part]}])  # type: ignore[list-item,misc]
    assert "input[0].content[0]: a file given by file_url cannot be read" in str(caught.value)
    assert gateway.upstream.chat_bodies == []


def test_a_document_over_the_size_limit_is_refused(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--max-body", str(48 * 1024 * 1024))
    data = base64.b64encode(b"a" * (32 * 1024 * 1024 + 1)).decode()  # built here, not a parameter
    part = {"type": "file", "file": {"file_data": f"data:text/plain;base64,{data}", "filename": "big.txt"}}
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client(gateway).chat.completions.create(
            model="m", messages=[{"role": "user", "content": [part]}]
        )  # type: ignore[list-item,misc]
    assert "over the document limit of 33,554,432 bytes (32 MiB)" in str(caught.value)
    assert gateway.upstream.chat_bodies == []


def test_an_anthropic_upstream_gets_the_documents_text(claude: tuple[str, AnthropicServer]) -> None:
    url, server = claude
    server.reply(ClaudeReply(text="Revenue is up."))
    ask = [{"role": "user", "content": [pdf_block(), {"type": "text", "text": "Summarize this."}]}]
    final = claude_client(url).messages.create(model="m", max_tokens=64, messages=ask)  # type: ignore[arg-type]
    assert final.content[0].text == "Revenue is up."  # type: ignore[union-attr]
    (asked,) = server.chat_bodies[-1]["messages"]
    assert asked["content"] == [{"type": "text", "text": f"{REPORT_SEEN}\nSummarize this."}]


def test_count_tokens_counts_a_documents_text(gateway: Gateway) -> None:
    ask = [{"role": "user", "content": [{"type": "text", "text": "Summarize this."}]}]
    shown = [{"role": "user", "content": [pdf_block(), *ask[0]["content"]]}]
    client = claude_client(gateway.url)
    plain = client.messages.count_tokens(model="m", messages=ask).input_tokens  # type: ignore[arg-type]
    with_pdf = client.messages.count_tokens(model="m", messages=shown).input_tokens  # type: ignore[arg-type]
    assert with_pdf - plain >= len(REPORT_SEEN) // 8  # the extracted text is counted, not the base64
    assert with_pdf - plain < len(REPORT) // 4
