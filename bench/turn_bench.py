"""Benchmark: what the runtime adds per tool turn, from turn 1 to turn 200.

A headless run (`asi-agent run --output-format stream-json`) makes `--turns` tool turns, each one
`read_file` of another one-line file (the cheapest real tool), then ends. The model answers instantly:

- `scripted`: the in-process scripted backend (no model time at all), with native calls and again in
  text mode (the calls written in the replies, the history sent back in that dialect);
- `openai`: the project's local OpenAI-protocol test server (`tests/servers/`), through the real
  OpenAI backend, streaming;

so the time between two consecutive `tool_result` lines on stdout is the runtime's overhead per turn
(plus the ~0.1 ms tool and, for `openai`, the local server). Reported: median and p95 over all turns,
and the medians of the first and last 20 turns (flat means nothing grows with the history); and the
CPU time (user + system) the asi-agent process spends per turn — the run's CPU time less that of a
1-turn run, over the extra turns — which a loaded machine inflates far less than wall time. For
`openai`, the test server's handling of each chat request is timed too (it runs in this process: from
its request line read to its reply written — reading and parsing the body, counting the prompt's
tokens, writing the stream). That is the stand-in model's time, not the runtime's: a real server's
handling is model time. So the `openai` figures are the runtime's share of each gap (the gap less the
server's handling of the request in it), and the whole gaps and the server's times are printed and
saved beside them. Targets: median ≤ 5 ms (scripted), ≤ 10 ms (openai); p95 ≤ 2x median. Writes
`bench/results/turns.json`.

    python bench/turn_bench.py [--turns N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from servers.openai_server import Call, OpenAIServer, Reply  # noqa: E402
from servers.scripted_http import JsonHandler  # noqa: E402

RESULTS = HERE / "results" / "turns.json"
TARGETS_MS = {"scripted": 5.0, "scripted, text mode": 5.0, "openai": 10.0}


def call(turn: int) -> dict[str, Any]:
    """Turn `turn`'s call: each reads another one-line file (three identical calls in a row end a run)."""
    return {"name": "read_file", "arguments": {"path": f"f{turn:03d}.txt"}}


def child_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_per_turn(variant: Any, turns: int, project: Path, env: dict[str, str]) -> tuple[list[float], float]:
    """The gaps of a `turns`-turn run, and its CPU seconds per turn beyond a 1-turn run."""
    before = child_cpu()
    variant(1, project, env)
    one = child_cpu() - before
    before = child_cpu()
    gaps = variant(turns, project, env)
    return gaps, (child_cpu() - before - one) / max(1, turns - 1)


def intervals(command: list[str], cwd: Path, env: dict[str, str]) -> list[float]:
    """Seconds between consecutive tool results of one streamed run."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    stamps: list[float] = []
    for line in process.stdout:
        if b'"tool_result"' in line[:40]:
            stamps.append(time.perf_counter())
    _, err = process.communicate()
    if process.returncode not in (0, 3):
        raise RuntimeError(f"run failed ({process.returncode}): {err.decode()[-500:]}")
    return [b - a for a, b in itertools.pairwise(stamps)]


def scripted(turns: int, project: Path, env: dict[str, str]) -> list[float]:
    """The run on the scripted backend."""
    script = project / "script.json"
    replies: list[Any] = [{"text": "", "tool_calls": [call(turn)]} for turn in range(turns)]
    script.write_text(json.dumps({"native": True, "replies": [*replies, "Done.\nAGENT_STATUS: DONE"]}))
    return intervals(agent_command("scripted", str(script), turns), project, env)


def scripted_text(turns: int, project: Path, env: dict[str, str]) -> list[float]:
    """The run on the scripted backend in text mode: each call written in the reply, as a model without
    native tool calling writes it, and the history sent back with the calls in that dialect."""
    script = project / "script-text.json"
    replies = [f"[TOOL_CALL]read_file[ARGS]{json.dumps(call(turn)['arguments'])}" for turn in range(turns)]
    script.write_text(json.dumps({"native": False, "replies": [*replies, "Done.\nAGENT_STATUS: DONE"]}))
    command = agent_command("scripted", str(script), turns)
    return intervals([*command[:-1], "--tool-mode", "text", command[-1]], project, env)


class TimedHandler(JsonHandler):
    """Times the whole handling of a chat request: from its request line read to its reply written."""

    begun = 0.0

    def parse_request(self) -> bool:
        self.begun = time.perf_counter()
        return super().parse_request()

    def do_POST(self) -> None:
        super().do_POST()
        if self.path.endswith("/chat/completions"):
            TimedServer.handling.append(time.perf_counter() - self.begun)


class TimedServer(OpenAIServer):
    """The OpenAI-protocol test server, timing its handling of each chat request."""

    handler_class = TimedHandler
    handling: ClassVar[list[float]] = []


def openai(turns: int, project: Path, env: dict[str, str]) -> list[float]:
    """The run through the local OpenAI-protocol server."""
    TimedServer.handling = []
    with TimedServer() as server:
        for turn in range(turns):
            server.reply(Reply(calls=[Call("read_file", call(turn)["arguments"])]))
        server.reply("Done.\nAGENT_STATUS: DONE")
        command = agent_command("openai", "test-model", turns)
        return intervals([*command[:-1], "--base-url", f"{server.root_url}/v1", command[-1]], project, env)


def agent_command(provider: str, model: str, turns: int) -> list[str]:
    """`asi-agent run` for a run of `turns` tool turns."""
    agent = str(Path(sys.executable).parent / "asi-agent")
    return [
        agent, "run", "--provider", provider, "--model", model, "--approval", "plan",
        "--max-turns", str(turns + 5), "--output-format", "stream-json", "read the files one by one",
    ]  # fmt: skip


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def figures(ms: list[float]) -> dict[str, float]:
    """Median, p95, n and the medians of the first and last 20 of `ms`."""
    return {
        "median_ms": statistics.median(ms),
        "p95_ms": pct(ms, 0.95),
        "first20_median_ms": statistics.median(ms[:20]),
        "last20_median_ms": statistics.median(ms[-20:]),
        "n": len(ms),
    }


def summary(gaps: list[float], cpu: float, server: list[float] | None = None) -> dict[str, Any]:
    """The figures of the gaps in ms, and CPU per turn; with the server's handling times, the figures
    are the runtime's share of each gap (the gap less the server's handling of the request in it), and
    the whole gaps and the server's times are kept beside them."""
    ms = [gap * 1000 for gap in gaps]
    if not server:
        return {**figures(ms), "cpu_per_turn_ms": cpu * 1000}
    # Gap k (tool results k to k+1) holds chat request k+1 (request 0 precedes the first result).
    handled = [1000 * server[k + 1] for k in range(min(len(ms), len(server) - 1))]
    own = [gap - handling for gap, handling in zip(ms, handled, strict=False)]
    return {**figures(own), "cpu_per_turn_ms": cpu * 1000, "wall": figures(ms), "server": figures(handled)}


def main() -> None:
    """Parse the options, run both variants, print and save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    env = {**os.environ, "ASI_CONFIG_DIR": tempfile.mkdtemp()}
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for turn in range(args.turns):
            (project / f"f{turn:03d}.txt").write_text(f"line {turn}\n")
        rows["scripted"] = summary(*cpu_per_turn(scripted, args.turns, project, env))
        rows["scripted, text mode"] = summary(*cpu_per_turn(scripted_text, args.turns, project, env))
        gaps, cpu = cpu_per_turn(openai, args.turns, project, env)
        rows["openai"] = summary(gaps, cpu, TimedServer.handling)
    print(f"load average at start: {load:.2f}\n")
    print(
        "| backend | median ms | p95 ms | first 20 turns ms | last 20 turns ms | CPU ms per turn | n "
        "| target (median) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, row in rows.items():
        print(
            f"| {name} | {row['median_ms']:.1f} | {row['p95_ms']:.1f} | {row['first20_median_ms']:.1f} | "
            f"{row['last20_median_ms']:.1f} | {row['cpu_per_turn_ms']:.1f} | {row['n']} | "
            f"≤ {TARGETS_MS[name]:.0f} |"
        )
    wall, server = rows["openai"]["wall"], rows["openai"]["server"]
    print(
        f"\nopenai: the runtime's share of each gap (above) is the gap less the test server's handling of "
        f"the chat request in it. Whole gaps: median {wall['median_ms']:.1f} ms, p95 {wall['p95_ms']:.1f}, "
        f"first 20 {wall['first20_median_ms']:.1f}, last 20 {wall['last20_median_ms']:.1f}; the server's "
        f"handling: median {server['median_ms']:.1f} ms, first 20 {server['first20_median_ms']:.1f}, "
        f"last 20 {server['last20_median_ms']:.1f}"
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "load_average": load}, indent=2) + "\n")


if __name__ == "__main__":
    main()
