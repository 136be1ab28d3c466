"""Benchmark: tool calls of the embedded local model, with and without the schema constraint.

Runs the fixed prompt set of `bench/prompts/local_prompts.json` (coding-assistant requests; eight
built-in tools offered every time, with the schemas the agent sends) through `LocalBackend` in both
modes and reports, per mode:
the share of calls whose tool exists and whose arguments validate against the tool's arguments
model, the share of replies that are a call vs an answer, how often the reply matched the expected
tool (or answer), the median seconds per turn and the median prompt size in tokens. Prints a
markdown table and writes `bench/results/local_constrained.json`.

    python bench/local_constrained.py [--limit N] [--seed S] [--threads N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from asi_agent.backends.local import LocalBackend, LocalBackendConfig
from asi_agent.messages import Completion, Message
from asi_agent.tools import args
from asi_agent.tools.base import ToolArgs
from asi_agent.tools.registry import default_registry
from asi_agent.tools.schema import tool_schema

HERE = Path(__file__).parent
PROMPTS = HERE / "prompts" / "local_prompts.json"
RESULTS = HERE / "results" / "local_constrained.json"

ARGS_MODELS: dict[str, type[ToolArgs]] = {
    "read_file": args.ReadFileArgs,
    "list_directory": args.ListDirectoryArgs,
    "grep_search": args.GrepSearchArgs,
    "file_search": args.FileSearchArgs,
    "replace_text": args.ReplaceTextArgs,
    "create_file": args.CreateFileArgs,
    "run_terminal_cmd": args.RunTerminalCmdArgs,
    "run_tests": args.RunTestsArgs,
}


def classify(completion: Completion, offered: set[str]) -> dict[str, Any]:
    """What one reply was: a call (valid or not), an answer, or a reply cut by max_tokens."""
    if not completion.native_calls:
        kind = "cut" if completion.finish_reason == "length" else "answer"
        return {"kind": kind, "name": None, "valid": False, "error": None}
    call = completion.native_calls[0]
    error = None
    if call.name not in offered:
        error = f"unknown tool {call.name!r}"
    else:
        try:
            ARGS_MODELS[call.name].model_validate(call.arguments)
        except ValidationError as exc:
            error = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    valid = error is None
    return {"kind": "call", "name": call.name, "valid": valid, "error": error, "arguments": call.arguments}


async def run_mode(
    data: dict[str, Any], config: LocalBackendConfig, limit: int | None
) -> list[dict[str, Any]]:
    """Every prompt once through a fresh backend in one mode; the model load is not timed."""
    backend = LocalBackend(config)
    registry = default_registry(locale="en")
    # What the agent sends: the registry's schemas, with closed choices stated as `enum`.
    tools = [tool_schema(registry.get(name), "en", enums=True) for name in ARGS_MODELS]
    offered = {tool["function"]["name"] for tool in tools}
    rows = []
    try:
        await backend.complete([Message("user", "Hello")])  # loads the model outside the timings
        for item in data["prompts"][:limit]:
            messages = [Message("system", data["system"]), Message("user", item["prompt"])]
            started = time.perf_counter()
            completion = await backend.complete(messages, tools)
            seconds = time.perf_counter() - started
            row = classify(completion, offered)
            row.update(
                prompt=item["prompt"],
                expect=item["expect"],
                seconds=round(seconds, 3),
                prompt_tokens=completion.usage.prompt_tokens,
                completion_tokens=completion.usage.completion_tokens,
                text=completion.text[:200],
            )
            rows.append(row)
    finally:
        await backend.aclose()
    return rows


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The per-mode figures of the report."""
    calls = [row for row in rows if row["kind"] == "call"]
    expected = sum(
        (row["kind"] == "call" and row["name"] == row["expect"])
        or (row["kind"] == "answer" and row["expect"] == "answer")
        for row in rows
    )
    return {
        "turns": len(rows),
        "call_rate": len(calls) / len(rows),
        "answer_rate": sum(row["kind"] == "answer" for row in rows) / len(rows),
        "cut_rate": sum(row["kind"] == "cut" for row in rows) / len(rows),
        "schema_valid_rate_of_calls": (sum(row["valid"] for row in calls) / len(calls)) if calls else None,
        "expected_rate": expected / len(rows),
        "median_seconds": statistics.median(row["seconds"] for row in rows),
        "median_prompt_tokens": statistics.median(row["prompt_tokens"] for row in rows),
    }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def markdown(summaries: dict[str, dict[str, Any]]) -> str:
    """The report table, one row per mode."""
    lines = [
        "| mode | turns | schema-valid calls | calls | answers | cut | as expected "
        "| median s/turn | prompt tokens |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, s in summaries.items():
        lines.append(
            f"| {mode} | {s['turns']} | {_pct(s['schema_valid_rate_of_calls'])} | {_pct(s['call_rate'])} "
            f"| {_pct(s['answer_rate'])} | {_pct(s['cut_rate'])} | {_pct(s['expected_rate'])} "
            f"| {s['median_seconds']:.2f} | {s['median_prompt_tokens']:.0f} |"
        )
    return "\n".join(lines)


async def main() -> None:
    """Run both modes, print the table, write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N prompts")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    options = parser.parse_args()
    data = json.loads(PROMPTS.read_text("utf-8"))
    settings = {"seed": options.seed} | ({"threads": options.threads} if options.threads else {})
    results: dict[str, Any] = {"settings": settings, "modes": {}}
    for mode, constrained in (("constrained", True), ("unconstrained", False)):
        config = LocalBackendConfig.model_validate(settings | {"constrained": constrained})
        results["settings"] = config.model_dump(mode="json", exclude={"constrained"})
        rows = await run_mode(data, config, options.limit)
        results["modes"][mode] = {"summary": summarize(rows), "turns": rows}
    print(markdown({mode: value["summary"] for mode, value in results["modes"].items()}))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"\nwrote {RESULTS.relative_to(HERE.parent)}")


if __name__ == "__main__":
    asyncio.run(main())
