"""How a sealed set of replies is scored through the gateway (shared by every `sealed*/score.py`,
each a few lines that hand their set to `main`; each set is scored once, see its SOURCES.md).

`asi-agent serve --emulate always` runs in front of a local OpenAI-compatible server that answers each
request with the case's reply (and any second ask with a plain sentence); every case is one
`chat.completions` request through the official `openai` SDK with `tool_choice: auto`. The tools offered
are every name the set uses, untyped, except that a case's declared tools (with their parameter types)
take the place of the untyped entries of the same name.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import openai
from corpus.case import CALL_MARKERS, Case
from servers.openai_server import OpenAIServer

from gateway.conftest import start_gateway, stop

AGAIN = "I could not make that call."
"""What the upstream answers when the gateway asks it again."""


@dataclass
class Score:
    """Per family: replies, replies given exactly, silent drops, calls taken from cut-off replies."""

    totals: Counter[str] = field(default_factory=Counter)
    exact: Counter[str] = field(default_factory=Counter)
    silent: Counter[str] = field(default_factory=Counter)
    cut: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def table(self) -> str:
        """The markdown table of SCORE.md, one row per family and a total."""
        rows = [
            "| family | replies | exact | silent drops | calls taken from cut-off replies |",
            "|---|---|---|---|---|",
        ]
        for family in sorted(self.totals):
            rows.append(
                f"| {family} | {self.totals[family]} | {self.exact[family]} | {self.silent[family]} "
                f"| {self.cut[family]} |"
            )
        n, e = sum(self.totals.values()), sum(self.exact.values())
        silent, cut = sum(self.silent.values()), sum(self.cut.values())
        rows.append(f"| **all** | {n} | {e} ({e / n:.1%}) | {silent} | {cut} |")
        return "\n".join(rows)

    def as_json(self) -> dict[str, Any]:
        """The totals and per-family counts, for bench/results."""
        n, e = sum(self.totals.values()), sum(self.exact.values())
        return {
            "replies": n,
            "exact": e,
            "exact_rate": round(e / n, 4) if n else 0.0,
            "silent_drops": sum(self.silent.values()),
            "calls_from_cut_off_replies": sum(self.cut.values()),
            "families": {
                f: {
                    "replies": self.totals[f],
                    "exact": self.exact[f],
                    "silent_drops": self.silent[f],
                    "calls_from_cut_off_replies": self.cut[f],
                }
                for f in sorted(self.totals)
            },
            "misses": self.misses,
        }


def judge(case: Case, calls: list[tuple[str, Any]], retried: bool, text: str) -> tuple[bool, bool, bool]:
    """(exact, silently dropped, a call taken from a reply that had to be reported)."""
    exact = calls == list(case.calls) and retried == case.problem
    if case.text is not None:
        exact = exact and " ".join(text.split()) == " ".join(case.text.split())
    leftover = any(marker in text for marker in CALL_MARKERS)
    silent = (case.call_like and not calls and not retried) or (leftover and not retried)
    return exact, silent, case.problem and not case.calls and bool(calls)


def _untyped(name: str) -> dict[str, Any]:
    function = {"name": name, "description": "", "parameters": {"type": "object"}}
    return {"type": "function", "function": function}


def offered_tools(case: Case, names: Iterable[str]) -> list[dict[str, Any]]:
    """Every name of the set, untyped, with the case's declared tools in place of their names."""
    declared = {schema["function"]["name"]: schema for schema in case.schemas()}
    return [declared.get(name) or _untyped(name) for name in sorted(set(names) | set(declared))]


def score(cases: Sequence[Case], family: Callable[[Case], str], extra_names: Iterable[str] = ()) -> Score:
    """Send every case through a fresh gateway and count what came back."""
    names = {name for case in cases for name, _ in case.calls} | set(extra_names)
    result = Score()
    with tempfile.TemporaryDirectory() as tmp, OpenAIServer() as upstream:
        url, process, log = start_gateway(Path(tmp), upstream.base_url, "--emulate", "always")
        client = openai.OpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0)
        try:
            for case in cases:
                _one(client, upstream, log, case, offered_tools(case, names), family(case), result)
        finally:
            stop(process)
    return result


def _one(
    client: openai.OpenAI,
    upstream: OpenAIServer,
    log: Path,
    case: Case,
    tools: list[dict[str, Any]],
    family: str,
    result: Score,
) -> None:
    upstream.reply(case.reply, AGAIN, AGAIN)
    logged = _lines(log)
    answer = client.chat.completions.create(
        model="test-model",
        messages=[{"role": "user", "content": "Go on."}],
        tools=tools,  # type: ignore[arg-type]
    )
    while upstream.next_reply({}) is not None:  # replies the gateway did not ask for
        pass
    entry = json.loads(_new_line(log, logged))
    message = answer.choices[0].message
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or ()]  # type: ignore[union-attr]
    ok, dropped, from_cut = judge(case, calls, bool(entry.get("retries")), message.content or "")
    result.totals[family] += 1
    result.exact[family] += ok
    result.silent[family] += dropped
    result.cut[family] += from_cut
    if not ok:
        result.misses.append(
            f"- {family}: `{case.reply[:90]!r}` -> {calls} retries={entry.get('retries')} "
            f"text={(message.content or '')[:60]!r}"
        )


def _lines(log: Path) -> int:
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def _new_line(log: Path, before: int) -> str:
    """The request's own log line: the gateway may write it just after the answer went out, and the
    line before it is the previous case's."""
    deadline = time.monotonic() + 10
    while len(lines := log.read_text(encoding="utf-8").splitlines()) <= before:
        if time.monotonic() > deadline:
            raise TimeoutError("the gateway wrote no log line for the request")
        time.sleep(0.01)
    return lines[-1]


def record(result: Score, path: Path, name: str, command: str) -> None:
    """Write the score as JSON with the commit it was taken at (for bench/results)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()

    entry = {
        "set": name,
        "commit": git("rev-parse", "HEAD"),
        "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command,
        **result.as_json(),
    }
    path.write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _set_names(cases: Iterable[Case]) -> set[str]:
    return {name for case in cases for name, _ in case.calls}


def main(cases: ModuleType, name: str, extra_names: Iterable[str] = (), doc: str = "") -> None:
    """Score one set's `cases` module through the gateway and print its tables; `--json PATH` also
    records them with the commit. The headline is `cases.CASES`; a set whose module has
    `SEEN_FAMILY_CASES` (families an earlier set or the corpus used, from new source files) has them
    scored and reported apart. Families come from `cases.FAMILIES` (source → family) when the module has
    one. Misses never fail it: the first score is the one reported."""
    parser = argparse.ArgumentParser(description=(doc or __doc__ or "").splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the score, with the commit, to this file")
    args = parser.parse_args()
    headline_cases: tuple[Case, ...] = cases.CASES
    seen_cases: tuple[Case, ...] = getattr(cases, "SEEN_FAMILY_CASES", ())
    families: dict[str, str] | None = getattr(cases, "FAMILIES", None)

    def family(case: Case) -> str:
        if families is not None:
            return families[case.source]
        return case.source.rsplit("/", 1)[-1].removeprefix("test_").removesuffix("_tool_parser.py")

    every_name = (*extra_names, *_set_names(headline_cases), *_set_names(seen_cases))
    headline = score(headline_cases, family, every_name)
    seen = score(seen_cases, family, every_name) if seen_cases else None
    if seen is None:
        print(headline.table())
        print("\nMisses:\n" + "\n".join(headline.misses))
    else:
        print("Headline (families no earlier set used):\n" + headline.table())
        print("\nFamilies seen before, from new source files (not in the headline):\n" + seen.table())
        print("\nMisses:\n" + "\n".join(headline.misses + seen.misses))
    if args.json:
        folder = Path(cases.__file__ or "").resolve().parent.name
        record(headline, args.json, name, f"python tests/gateway/{folder}/score.py")
        if seen is not None:
            entry = json.loads(args.json.read_text(encoding="utf-8"))
            entry["seen_family"] = seen.as_json()
            args.json.write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
