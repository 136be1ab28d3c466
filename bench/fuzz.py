"""Fuzzing with atheris (coverage-guided, libFuzzer): the call parser and the config, policy and
manifest loaders must never raise anything but their documented error on any input.

    python bench/fuzz.py [--runs N] [--jobs N] [--target parser|config|policy|manifest ...]

Each target runs in its own processes for `--runs` generated inputs (default 1,000,000), seeded with
real examples: first `--guided` inputs with asi-agent's code instrumented, so that libFuzzer keeps every
input that reaches new code in the corpus; then the rest without instrumentation (about 10x faster),
mutating that corpus. `--jobs` targets run side by side (default 2, one per core of a 2-core machine);
the loaders' files are written in a RAM folder (`/dev/shm`) when there is one, so the disk does not set
the pace. A target passes when libFuzzer reaches DONE with no crash; a crash prints the input
and the traceback, and the input is kept in `bench/.cache/fuzz-crashes/`. Writes
`bench/results/fuzz.json`. Needs the `bench` extra (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results" / "fuzz.json"
CRASHES = HERE / ".cache" / "fuzz-crashes"
TARGETS = ("parser", "config", "policy", "manifest")

SEEDS: dict[str, list[str]] = {
    "parser": [
        '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}',
        '[TOOL:grep_search]{"pattern": "x"}[/TOOL]',
        '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>',
        '```json\n{"name": "list_directory", "arguments": {"path": "."}}\n```',
        'I will look.\n```json action\n[{"name": "a", "arguments": {}}, {"name": "b"}]\n```\n'
        "AGENT_STATUS: DONE",
        "AGENT_STATUS: DONE",
        "<think>maybe</think><tool_call>\n<function=read_file>\n<parameter=path>\nx.py\n</parameter>\n"
        "</function>\n</tool_call>",
        '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}]',
        '<|python_tag|>{"name": "f", "parameters": {"x": "“y”",}}',
        "[f(a=1), g(b='x')]",
        "AGENT_STATUS: CONTINUE",
    ],
    "config": [
        'provider = "ollama"\nmodel = "qwen2.5-coder:7b"\nmax_turns = 30\n[ollama]\nnum_ctx = 8192\n',
        'tool_mode = "text"\napproval = "auto-edit"\n[local]\nthreads = 2\nn_ctx = 4096\n',
        'offered_tools = ["read_file"]\ntemperature = 0.2\n',
    ],
    # and the shipped presets; this one made Path.expanduser raise RuntimeError (2026-11-23 report)
    "policy": ['extends = "~efault"\nmode = "auto-edit"\nallow_dirs = ["~nobody/x"]\n'],
    "manifest": [],  # filled from the repository's own manifest
}


def _instrumented() -> Any:
    """atheris, with asi-agent's modules instrumented for coverage (unless ASI_FUZZ_BLIND is set)."""
    import atheris  # noqa: PLC0415 - bench extra

    if os.environ.get("ASI_FUZZ_BLIND"):
        return atheris
    with atheris.instrument_imports(include=["asi_agent"]):
        import asi_agent.calls  # noqa: PLC0415
        import asi_agent.config  # noqa: PLC0415
        import asi_agent.plugins.manifest  # noqa: PLC0415
        import asi_agent.policy.model  # noqa: F401, PLC0415
    return atheris


def _one_input(target: str, scratch: Path) -> Any:
    """The function libFuzzer calls with each input for `target`."""
    from asi_agent.calls import parse_reply  # noqa: PLC0415
    from asi_agent.config import load_config  # noqa: PLC0415
    from asi_agent.exceptions import ConfigError  # noqa: PLC0415
    from asi_agent.plugins.manifest import read_manifest  # noqa: PLC0415
    from asi_agent.policy.model import load_policy  # noqa: PLC0415

    config_file = scratch / ".asi" / "config.toml"
    config_file.parent.mkdir(parents=True, exist_ok=True)
    policy_file = scratch / "policy.toml"
    manifest_file = scratch / "moss-tools.json"

    def parser(data: bytes) -> None:
        parse_reply(data.decode("utf-8", "replace"))

    def config(data: bytes) -> None:
        config_file.write_bytes(data)
        with contextlib.suppress(ConfigError):
            load_config(scratch, env={})

    def policy(data: bytes) -> None:
        policy_file.write_bytes(data)
        with contextlib.suppress(ConfigError):
            load_policy(str(policy_file), scratch)

    def manifest(data: bytes) -> None:
        manifest_file.write_bytes(data)
        read_manifest(manifest_file, "project", shown="moss-tools.json")

    return {"parser": parser, "config": config, "policy": policy, "manifest": manifest}[target]


def _scratch_parent() -> str | None:
    """A RAM-backed folder for the loaders' files when the system has one, else the default."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def child(target: str, argv: list[str]) -> None:
    """Inside the target's own process: set up and hand over to libFuzzer (which exits)."""
    atheris = _instrumented()
    with tempfile.TemporaryDirectory(dir=_scratch_parent()) as scratch:
        os.environ["ASI_CONFIG_DIR"] = str(Path(scratch) / "user")  # no user config leaks in
        atheris.Setup([sys.argv[0], *argv], _one_input(target, Path(scratch)))
        atheris.Fuzz()


def seed_corpus(target: str, folder: Path) -> None:
    """Write the real examples `target` starts from."""
    seeds = list(SEEDS[target])
    if target == "policy":
        seeds += [p.read_text() for p in sorted((REPO / "asi_agent" / "policy" / "presets").glob("*.toml"))]
    if target == "manifest":
        seeds.append((REPO / "moss-tools.json").read_text())
    folder.mkdir(parents=True, exist_ok=True)
    for index, seed in enumerate(seeds):
        (folder / f"seed{index}").write_text(seed, encoding="utf-8")


def run_target(target: str, runs: int, guided: int) -> dict[str, Any]:
    """Fuzz one target for `runs` inputs (the first `guided` with coverage); its verdict and speed."""
    CRASHES.mkdir(parents=True, exist_ok=True)
    executed = 0
    begun = time.monotonic()
    log = ""
    crashed = False
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        seed_corpus(target, corpus)
        for phase_runs, blind in ((min(guided, runs), False), (max(runs - guided, 0), True)):
            if phase_runs == 0 or crashed:
                continue
            command = [sys.executable, __file__, "--child", target, f"-runs={phase_runs}", "-max_len=4096"]
            command += [f"-artifact_prefix={CRASHES}/{target}-", "-print_final_stats=1", str(corpus)]
            env = {**os.environ, **({"ASI_FUZZ_BLIND": "1"} if blind else {})}
            done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
            log = done.stdout + done.stderr
            counts = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
            executed += int(counts[-1]) if counts else 0
            crashed = done.returncode != 0
        corpus_size = len(list(corpus.iterdir()))
    return {
        "target": target,
        "inputs": executed,
        "guided_inputs": min(guided, runs),
        "corpus": corpus_size,
        "seconds": round(time.monotonic() - begun, 1),
        "crashed": crashed,
        "tail": log[-3000:] if crashed else "",
    }


def main() -> None:
    """Parse the options; fuzz every target in turn; print and save the table."""
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000, help="inputs per target")
    parser.add_argument("--guided", type=int, default=20_000, help="inputs per target with coverage")
    parser.add_argument("--target", action="append", choices=TARGETS, help="default: all")
    parser.add_argument("--jobs", type=int, default=2, help="targets fuzzed side by side")
    args = parser.parse_args()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        targets = args.target or TARGETS
        rows = list(pool.map(lambda target: run_target(target, args.runs, args.guided), targets))
    print("| target | inputs (coverage-guided) | corpus | seconds | inputs/s | unhandled exceptions |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        rate = row["inputs"] / row["seconds"] if row["seconds"] else 0
        print(
            f"| {row['target']} | {row['inputs']:,} ({row['guided_inputs']:,}) | {row['corpus']} | "
            f"{row['seconds']} | {rate:,.0f} | {int(row['crashed'])} |"
        )
        if row["crashed"]:
            print(row["tail"], file=sys.stderr)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    payload = {"rows": rows, "jobs": args.jobs, "load_average": os.getloadavg()[0]}
    RESULTS.write_text(json.dumps(payload, indent=2) + "\n")
    sys.exit(1 if any(row["crashed"] for row in rows) else 0)


if __name__ == "__main__":
    main()
