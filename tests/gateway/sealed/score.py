"""Score the gateway on its sealed set (run once; see SOURCES.md).

    python tests/gateway/sealed/score.py

Starts `asi-agent serve --emulate always` in front of a local OpenAI-compatible server that answers
each request with the case's reply (and any second ask with a plain sentence), sends every case through
the official `openai` SDK and prints, per family and in total: replies given exactly, silent drops and
calls taken from cut-off replies; then the misses.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent
sys.path[:0] = [str(TESTS), str(TESTS / "calls"), str(HERE)]

import openai  # noqa: E402
from cases import CASES  # noqa: E402
from corpus.case import CALL_MARKERS, Case  # noqa: E402
from gateway.conftest import start_gateway  # noqa: E402
from servers.openai_server import OpenAIServer  # noqa: E402

AGAIN = "I could not make that call."
"""What the upstream answers when the gateway asks it again."""


def _tools() -> list[dict[str, Any]]:
    names = {name for case in CASES for name, _ in case.calls}
    names |= {"func", "bad", "calc", "foo", "test_function", "refresh"}
    return [
        {"type": "function", "function": {"name": n, "description": "", "parameters": {"type": "object"}}}
        for n in sorted(names)
    ]


def _family(case: Case) -> str:
    return case.source.rsplit("/", 1)[-1].removeprefix("test_").removesuffix("_tool_parser.py")


def _judge(case: Case, calls: list[tuple[str, Any]], retried: bool, text: str) -> tuple[bool, bool, bool]:
    """(exact, silently dropped, a call taken from a reply that had to be reported)."""
    exact = calls == list(case.calls) and retried == case.problem
    if case.text is not None:
        exact = exact and " ".join(text.split()) == " ".join(case.text.split())
    leftover = any(marker in text for marker in CALL_MARKERS)
    silent = (case.call_like and not calls and not retried) or (leftover and not retried)
    return exact, silent, case.problem and not case.calls and bool(calls)


def main() -> None:
    """Send every sealed reply through the gateway and print the table."""
    totals, exact, silent, cut = Counter[str](), Counter[str](), Counter[str](), Counter[str]()
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, OpenAIServer() as upstream:
        url, process, log = start_gateway(Path(tmp), upstream.base_url, "--emulate", "always")
        client = openai.OpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0)
        try:
            for case in CASES:
                upstream.reply(case.reply, AGAIN, AGAIN)
                answer = client.chat.completions.create(
                    model="test-model",
                    messages=[{"role": "user", "content": "Go on."}],
                    tools=_tools(),  # type: ignore[arg-type]
                )
                while upstream.next_reply({}) is not None:  # replies the gateway did not ask for
                    pass
                entry = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
                message = answer.choices[0].message
                calls = [
                    (c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or ()
                ]
                ok, dropped, from_cut = _judge(case, calls, bool(entry.get("retries")), message.content or "")
                family = _family(case)
                totals[family] += 1
                exact[family] += ok
                silent[family] += dropped
                cut[family] += from_cut
                if not ok:
                    misses.append(
                        f"- {family}: `{case.reply[:90]!r}` -> {calls} retries={entry.get('retries')} "
                        f"text={(message.content or '')[:60]!r}"
                    )
        finally:
            process.terminate()
            process.wait(10)
    print("| family | replies | exact | silent drops | calls taken from cut-off replies |")
    print("|---|---|---|---|---|")
    for family in sorted(totals):
        print(f"| {family} | {totals[family]} | {exact[family]} | {silent[family]} | {cut[family]} |")
    n, e = sum(totals.values()), sum(exact.values())
    print(f"| **all** | {n} | {e} ({e / n:.1%}) | {sum(silent.values())} | {sum(cut.values())} |")
    print("\nMisses:\n" + "\n".join(misses))


if __name__ == "__main__":
    main()
