"""Benchmark: time from process start to the first model request, and from the result to process exit.

Against the project's own local test servers (OpenAI and Ollama protocols, from `tests/servers/`), for:

- the floor: a bare `python -c` that POSTs one chat request with `urllib` (what no client can beat);
- `asi-agent run` with `--provider openai` and `--provider ollama` on a tiny project, each twice:
  *cold* (no recorded first request: the cache file is removed before every run — what a user sees on
  the first run, or after changing settings) and *warm* (the previous run's first request was recorded,
  so it is sent ahead at start-up and adopted; a different task each run — each warm run follows the
  cold run of the same settings, which recorded it);
- `aider` (`aider-chat` from PyPI, in its own venv at `bench/.cache/aider-venv`; made with `--with-aider`),
  against the same OpenAI-protocol server, when it is installed.

"First request" is when the server received the chat request, minus when the process was spawned (one
clock, one machine). "Exit" is when the process ended, minus when its last line of output arrived.
"Whole run" is from spawn to exit (the server answers at once), what the person waits for.
Each is measured `--runs` times, alternating the variants, so machine load affects all alike. Targets:
first request ≤ 2x the floor; exit ≤ 50 ms. Prints a markdown table; writes `bench/results/startup.json`.

    python bench/startup_bench.py [--runs N] [--with-aider]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from servers.ollama_server import OllamaServer  # noqa: E402
from servers.openai_server import OpenAIServer, Reply  # noqa: E402

RESULTS = HERE / "results" / "startup.json"
CACHE = Path(".asi", "cache", "first-request.json")
AIDER = HERE / ".cache" / "aider-venv" / "bin" / "aider"
FIRST_TARGET_RATIO = 2.0
EXIT_TARGET_MS = 50.0

FLOOR = """
import json, sys, urllib.request
body = json.dumps({"model": "test-model", "messages": [{"role": "user", "content": "hi"}]}).encode()
request = urllib.request.Request(sys.argv[1], data=body, headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(request).read()[:60])
"""


class Arrivals:
    """Records when each chat request arrived; answers every one with a final reply."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, body: Any) -> Reply:
        with self.lock:
            self.times.append(time.time())
        return Reply(text="Nothing to do.\nAGENT_STATUS: DONE")

    def first_after(self, moment: float) -> float | None:
        with self.lock:
            later = [t for t in self.times if t >= moment]
        return min(later) if later else None


def measure(command: list[str], cwd: Path, arrivals: Arrivals, env: dict[str, str]) -> tuple[float, ...]:
    """(seconds to the first chat request, from the last output line to exit, whole run) of one run."""
    if "(cold" in command[-1]:
        (cwd / CACHE).unlink(missing_ok=True)
    spawned = time.time()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
    )
    assert process.stdout is not None
    last_line = spawned
    for _line in process.stdout:
        last_line = time.time()
    process.wait()
    exited = time.time()
    first = arrivals.first_after(spawned)
    if first is None:
        raise RuntimeError(f"{command[0]} made no chat request (exit code {process.returncode})")
    return first - spawned, exited - last_line, exited - spawned


def variants(openai_url: str, ollama_url: str, with_aider: bool) -> dict[str, list[str]]:
    """The command line of each variant."""
    agent = str(Path(sys.executable).parent / "asi-agent")
    common = ["--output-format", "json", "--max-turns", "2", "--approval", "plan"]
    found = {"floor (python -c, urllib)": [sys.executable, "-c", FLOOR, f"{openai_url}/v1/chat/completions"]}
    for provider, url in (("openai", f"{openai_url}/v1"), ("ollama", ollama_url)):
        for kind in ("cold", "warm"):
            # The task names the variant (so `measure` knows which to make cold) and changes every run.
            found[f"asi-agent --provider {provider}, {kind}"] = [
                agent, "run", "--provider", provider, "--base-url", url, "--model", "test-model", *common,
                f"hello ({kind} run",
            ]  # fmt: skip
    if with_aider and AIDER.exists():
        found["aider (aider-chat)"] = [
            str(AIDER),
            "--model",
            "openai/test-model",
            "--openai-api-base",
            f"{openai_url}/v1",
            "--openai-api-key",
            "x",
            "--message",
            "hello",
            "--yes-always",
            "--no-git",
            "--no-check-update",
            "--no-show-model-warnings",
            "--analytics-disable",
            "--no-pretty",
            "--no-stream",
        ]
    return found


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(runs: int, with_aider: bool) -> dict[str, Any]:
    """Every variant `runs` times, interleaved."""
    openai_arrivals, ollama_arrivals = Arrivals(), Arrivals()
    samples: dict[str, list[tuple[float, ...]]] = {}
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "ASI_CONFIG_DIR": tempfile.mkdtemp()}
    env.pop("ASI_PROVIDER", None)
    with OpenAIServer() as openai, OllamaServer() as ollama, tempfile.TemporaryDirectory() as project:
        for server, arrivals in ((openai, openai_arrivals), (ollama, ollama_arrivals)):
            server.reply(*([arrivals] * (runs * 8 + 16)))
        Path(project, "hello.py").write_text("print('hello')\n")
        found = variants(openai.root_url, ollama.host, with_aider)
        for number in range(runs):
            for name, words in found.items():
                arrivals = ollama_arrivals if "ollama" in name else openai_arrivals
                command = [*words[:-1], f"{words[-1]} {number})"] if name.startswith("asi-agent") else words
                samples.setdefault(name, []).append(measure(command, Path(project), arrivals, env))
    return summarise(samples)


def summarise(samples: dict[str, list[tuple[float, ...]]]) -> dict[str, Any]:
    """Median, p95 and n of the figures per variant, and each variant's ratio to the floor."""
    floor = statistics.median(sample[0] for sample in samples["floor (python -c, urllib)"])
    rows = {}
    for name, pairs in samples.items():
        firsts = [sample[0] * 1000 for sample in pairs]
        exits = [sample[1] * 1000 for sample in pairs]
        wholes = [sample[2] * 1000 for sample in pairs]
        rows[name] = {
            "first_request_p50_ms": statistics.median(firsts),
            "first_request_p95_ms": pct(firsts, 0.95),
            "ratio_to_floor": statistics.median(firsts) / (floor * 1000),
            "exit_p50_ms": statistics.median(exits),
            "exit_p95_ms": pct(exits, 0.95),
            "whole_run_p50_ms": statistics.median(wholes),
            "n": len(pairs),
        }
    return rows


def main() -> None:
    """Parse the options, run, print and save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--with-aider", action="store_true", help="also measure aider (must be installed)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = run(args.runs, args.with_aider)
    print(f"load average at start: {load:.2f}\n")
    print(
        "| variant | first request p50 ms | p95 ms | x floor | exit after output p50 ms | p95 ms "
        "| whole run p50 ms | n |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, row in rows.items():
        print(
            f"| {name} | {row['first_request_p50_ms']:.0f} | {row['first_request_p95_ms']:.0f} | "
            f"{row['ratio_to_floor']:.2f} | {row['exit_p50_ms']:.0f} | {row['exit_p95_ms']:.0f} | "
            f"{row['whole_run_p50_ms']:.0f} | {row['n']} |"
        )
    print(f"\ntargets: first request ≤ {FIRST_TARGET_RATIO}x the floor; exit ≤ {EXIT_TARGET_MS:.0f} ms")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "load_average": load}, indent=2) + "\n")


if __name__ == "__main__":
    main()
