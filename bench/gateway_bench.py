"""What `asi-agent serve` adds over talking to the upstream directly.

A fake OpenAI-compatible upstream with no native tools (`gateway_upstream.py`, in a thread of this
process) answers every request with a short text reply carrying one call in text (by default
`[TOOL_CALL]read_file[ARGS]{...}`; `--reply` picks another form), streamed in a few SSE chunks.
The gateway (`asi-agent serve --emulate always`, a real subprocess) sits in front of it. Measured,
with the `openai` SDK's HTTP client:

- added latency, non-streamed: p50 / p95 of (through the gateway) − (direct), same requests, same run;
- time to the first streamed chunk, direct and through the gateway;
- 64 concurrent streams for 1,000 requests through the gateway: errors (must be 0), wall time;
- the gateway's peak memory (VmHWM of its process).

Run: `.venv/bin/python bench/gateway_bench.py [--requests 1000] [--concurrency 64] [--json]`.
With `--router PATH/ccr`, claude-code-router (npm `@musistudio/claude-code-router`, installed by
`scripts/install_clients.sh`) is measured side by side on the Messages API over the same upstream: it
translates the API and passes text through (no tool emulation); the gateway emulates tool calling too.
Their requests alternate; `--isolate`: each measured alone, in turns, the other's process stopped; `--gap S`:
S seconds before every timed request; `--relay`: a pass-through relay too (`gateway_relay.py`), the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
from gateway_relay import start_relay
from gateway_upstream import BODY, REPLIES, TOOLS, start_upstream


def start_gateway(
    upstream: str, work: Path, package: str | None = None
) -> tuple[str, subprocess.Popen[bytes]]:
    """`asi-agent serve --emulate always` in front of `upstream` (the `asi_agent` found in the folder
    `package` when given: another version of the gateway, measured in the same sitting)."""
    log = work / "serve.log"
    command = [sys.executable, "-m", "asi_agent", "serve", "--port", "0", "--provider", "openai"]
    command += ["--base-url", upstream, "--model", "m", "--emulate", "always", "--max-concurrent", "256"]
    env = {"PATH": "/usr/bin:/bin", "ASI_CONFIG_DIR": str(work / "config"), "HOME": str(work)}
    env |= {"PYTHONPATH": str(Path(package).resolve())} if package else {}
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=work, stdout=subprocess.DEVNULL, stderr=sink, env=env)
    for _ in range(600):
        found = re.search(r"listening on (http://\S+)", log.read_text(encoding="utf-8"))
        if found:
            return f"{found.group(1)}/v1", process
        time.sleep(0.05)
    raise SystemExit(f"the gateway did not start:\n{log.read_text(encoding='utf-8')}")


# Stream chunks spaced as `json.dumps` writes them (the fake upstream) or compact (the gateway, as OpenAI).
_FIRST_TEXT = re.compile(r'"content": ?"R')
_CALLED = re.compile(r'"finish_reason": ?"tool_calls"')


async def _timed(client: httpx.AsyncClient, url: str, *, stream: bool) -> float:
    """Seconds to the whole answer (non-streamed) or to the first content chunk (streamed)."""
    started = time.perf_counter()
    if not stream:
        reply = await client.post(f"{url}/chat/completions", json=BODY)
        reply.raise_for_status()
        return time.perf_counter() - started
    first = 0.0
    async with client.stream("POST", f"{url}/chat/completions", json=BODY | {"stream": True}) as reply:
        reply.raise_for_status()
        async for line in reply.aiter_lines():
            if not first and _FIRST_TEXT.search(line):
                first = time.perf_counter() - started
    return first


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def latency(direct: str, gateway: str, rounds: int) -> dict[str, Any]:
    """p50/p95 in ms, direct and through the gateway, sequential requests alternating between the two."""
    results: dict[str, list[float]] = {k: [] for k in ("direct", "gateway", "direct_ttft", "gateway_ttft")}
    async with httpx.AsyncClient(timeout=30) as client:
        for url in (direct, gateway):  # warm both paths
            await _timed(client, url, stream=False)
        for _ in range(rounds):
            results["direct"].append(await _timed(client, direct, stream=False))
            results["gateway"].append(await _timed(client, gateway, stream=False))
            results["direct_ttft"].append(await _timed(client, direct, stream=True))
            results["gateway_ttft"].append(await _timed(client, gateway, stream=True))
    out = {f"{k}_p50_ms": round(_pct(v, 0.5), 2) for k, v in results.items()}
    out |= {f"{k}_p95_ms": round(_pct(v, 0.95), 2) for k, v in results.items()}
    out["added_p50_ms"] = round(out["gateway_p50_ms"] - out["direct_p50_ms"], 2)
    out["added_p95_ms"] = round(out["gateway_p95_ms"] - out["direct_p95_ms"], 2)
    out["added_ttft_p50_ms"] = round(out["gateway_ttft_p50_ms"] - out["direct_ttft_p50_ms"], 2)
    out["rounds"] = rounds
    return out


async def load(gateway: str, requests: int, concurrency: int) -> dict[str, Any]:
    """`requests` streamed requests, `concurrency` at a time; every stream must end with a call."""
    errors, done = 0, 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(requests):
        queue.put_nowait(i)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors, done
        while not queue.empty():
            queue.get_nowait()
            try:
                async with client.stream(
                    "POST", f"{gateway}/chat/completions", json=BODY | {"stream": True}
                ) as reply:
                    text = "".join([line async for line in reply.aiter_lines()])
                ok = reply.status_code == 200 and _CALLED.search(text) is not None and "[DONE]" in text
            except httpx.HTTPError:
                ok = False
            errors += not ok
            done += 1

    started = time.perf_counter()
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    wall = time.perf_counter() - started
    return {
        "requests": done,
        "concurrency": concurrency,
        "errors": errors,
        "wall_s": round(wall, 2),
        "rps": round(done / wall, 1),
    }


MESSAGES = {
    "model": "m",
    "max_tokens": 256,
    "messages": [{"role": "user", "content": "Read src/main.py"}],
    "tools": [
        {
            "name": "read_file",
            "description": "Read a file",
            "input_schema": TOOLS[0]["function"]["parameters"],
        }
    ],
}


def start_router(binary: str, upstream: str, work: Path) -> tuple[str, Path, int | None]:
    """claude-code-router (`ccr start`) in front of the same upstream, with its own home folder."""
    home = work / "ccr-home"
    (home / ".claude-code-router").mkdir(parents=True)
    provider = {
        "name": "fake",
        "api_base_url": f"{upstream}/chat/completions",
        "api_key": "x",
        "models": ["m"],
    }
    config = {"PORT": 3466, "LOG": False, "Providers": [provider], "Router": {"default": "fake,m"}}
    (home / ".claude-code-router" / "config.json").write_text(json.dumps(config), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    subprocess.Popen([binary, "start"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid_file = home / ".claude-code-router" / ".claude-code-router.pid"
    for _ in range(300):
        try:
            httpx.get("http://127.0.0.1:3466/", timeout=1)
        except httpx.HTTPError:
            time.sleep(0.1)
            continue
        # The server process writes its pid there: its CPU is measured as the gateway's is.
        pid = pid_file.read_text(encoding="utf-8").strip() if pid_file.exists() else ""
        return "http://127.0.0.1:3466", home, int(pid) if pid.isdigit() else None
    raise SystemExit("claude-code-router did not start")


async def _timed_messages(client: httpx.AsyncClient, url: str, *, stream: bool) -> float:
    started = time.perf_counter()
    headers = {"x-api-key": "x", "anthropic-version": "2023-06-01"}
    if not stream:
        (await client.post(f"{url}/v1/messages", json=MESSAGES, headers=headers)).raise_for_status()
        return time.perf_counter() - started
    first = 0.0
    body = MESSAGES | {"stream": True}
    async with client.stream("POST", f"{url}/v1/messages", json=body, headers=headers) as reply:
        reply.raise_for_status()
        async for line in reply.aiter_lines():
            if not first and "text_delta" in line:
                first = time.perf_counter() - started
    return first


async def versus_router(
    direct: str, gateway: str, router: str, rounds: int, pids: dict[str, int | None]
) -> dict[str, Any]:
    """The Messages API through the gateway and through claude-code-router, over the same upstream;
    with each one's CPU per request it answered (`pids`: the gateway's and the router's processes)."""
    samples: dict[str, list[float]] = {
        k: [] for k in ("direct", "gateway", "router", "gateway_ttft", "router_ttft")
    }
    async with httpx.AsyncClient(timeout=30) as client:
        for url in (gateway, router):
            await _timed_messages(client, url, stream=False)
        used = {who: cpu_seconds(pid) for who, pid in pids.items() if pid is not None}
        for _ in range(rounds):
            samples["direct"].append(await _timed(client, direct, stream=False))
            samples["gateway"].append(await _timed_messages(client, gateway, stream=False))
            samples["router"].append(await _timed_messages(client, router, stream=False))
            samples["gateway_ttft"].append(await _timed_messages(client, gateway, stream=True))
            samples["router_ttft"].append(await _timed_messages(client, router, stream=True))
    p50 = {k: _pct(v, 0.5) for k, v in samples.items()}
    p95 = {k: _pct(v, 0.95) for k, v in samples.items()}
    out: dict[str, Any] = {f"messages_{k}_p50_ms": round(v, 2) for k, v in p50.items()}
    out |= {f"messages_{k}_p95_ms": round(v, 2) for k, v in p95.items()}
    for who in ("gateway", "router"):
        out[f"messages_{who}_added_p50_ms"] = round(p50[who] - p50["direct"], 2)
        out[f"messages_{who}_added_p95_ms"] = round(p95[who] - p95["direct"], 2)
    out["messages_rounds"] = rounds
    for who, before in used.items():
        pid = pids[who]
        assert pid is not None
        # Two requests a round each (one whole, one streamed).
        spent = cpu_seconds(pid) - before
        out[f"messages_{who}_cpu_ms_per_request"] = round(spent * 1000 / (2 * rounds), 3)
    return out


async def versus_router_isolated(
    direct: str, urls: dict[str, str], rounds: int, pids: dict[str, int], gap: float
) -> dict[str, Any]:
    """The same comparison with each proxy (`urls`: gateway, router, and the relay when measured) alone:
    in blocks of 25 rounds, taking turns, the others' processes stopped (SIGSTOP) meanwhile, so none's
    leftover work after an answer lands on another's next request, as it does when their requests
    alternate. Each one's added latency is taken against the direct requests of its own blocks. `gap`
    seconds pass before every timed request (calls seconds apart, not back to back). The relay passes
    bytes through: it is sent what the upstream reads, Chat Completions."""
    samples: dict[str, list[float]] = {
        f"{kind}{who}": [] for who in urls for kind in ("direct_", "", "ttft_")
    }
    spent = dict.fromkeys(urls, 0.0)
    async with httpx.AsyncClient(timeout=30) as client:
        for done in range(0, rounds, 25):
            for who, url in urls.items():
                timed = _timed if who == "relay" else _timed_messages
                others = [pid for name, pid in pids.items() if name != who]
                for pid in others:
                    os.kill(pid, signal.SIGSTOP)
                try:
                    await timed(client, url, stream=False)  # the first after a pause: untimed
                    before = cpu_seconds(pids[who])
                    for _ in range(min(25, rounds - done)):
                        await asyncio.sleep(gap)
                        samples[f"direct_{who}"].append(await _timed(client, direct, stream=False))
                        await asyncio.sleep(gap)
                        samples[who].append(await timed(client, url, stream=False))
                        await asyncio.sleep(gap)
                        samples[f"ttft_{who}"].append(await timed(client, url, stream=True))
                    spent[who] += cpu_seconds(pids[who]) - before
                finally:
                    for pid in others:
                        os.kill(pid, signal.SIGCONT)
    return _isolated_figures(samples, spent, rounds, gap)


def _isolated_figures(
    samples: dict[str, list[float]], spent: dict[str, float], rounds: int, gap: float
) -> dict[str, Any]:
    out: dict[str, Any] = {"messages_rounds": rounds, "messages_isolated": True, "messages_gap_s": gap}
    for who, used in spent.items():
        for q, name in ((0.5, "p50"), (0.95, "p95")):
            direct_q = _pct(samples[f"direct_{who}"], q)
            out[f"messages_direct_{who}_{name}_ms"] = round(direct_q, 2)
            out[f"messages_{who}_{name}_ms"] = round(_pct(samples[who], q), 2)
            out[f"messages_{who}_added_{name}_ms"] = round(_pct(samples[who], q) - direct_q, 2)
            out[f"messages_{who}_ttft_{name}_ms"] = round(_pct(samples[f"ttft_{who}"], q), 2)
        out[f"messages_{who}_cpu_ms_per_request"] = round(used * 1000 / (2 * rounds), 3)
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory_mb(pid: int) -> float:
    """VmHWM of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def _compared(
    args: argparse.Namespace, upstream: str, gateway: str, router: str, pids: dict[str, int | None]
) -> dict[str, Any]:
    """The gateway beside the router: their requests alternating, or each alone (`--isolate`), with
    the pass-through relay measured the same way when asked (`--relay`)."""
    base = gateway.removesuffix("/v1")
    if not args.isolate:
        return await versus_router(upstream, base, router, args.rounds, pids)
    known = {who: pid for who, pid in pids.items() if pid is not None}
    if len(known) < len(pids):
        raise SystemExit("--isolate needs both processes' ids (claude-code-router wrote no pid file)")
    urls = {"gateway": base, "router": router}
    relay = start_relay(upstream) if args.relay else None
    try:
        if relay is not None:
            urls["relay"], known["relay"] = relay[0], relay[1].pid
        return await versus_router_isolated(upstream, urls, args.rounds, known, args.gap)
    finally:
        if relay is not None:
            relay[1].terminate()
            relay[1].wait(10)


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=200, help="sequential requests for the latency figures")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--router", metavar="CCR", help="claude-code-router's `ccr` binary: measured side by side"
    )
    parser.add_argument(
        "--isolate",
        action="store_true",
        help="with --router: measure each proxy alone, in turns, the other one stopped meanwhile",
    )
    parser.add_argument(
        "--gap", type=float, default=0.0, help="with --isolate: seconds before every timed request"
    )
    parser.add_argument(
        "--relay",
        action="store_true",
        help="with --isolate: measure a pass-through relay (gateway_relay.py) too, the floor of a hop",
    )
    parser.add_argument(
        "--reply",
        choices=sorted(REPLIES),
        default="asi",
        help="the upstream's reply: the ASI one-line call (default) or the same call in another form "
        "(gateway_upstream.py)",
    )
    parser.add_argument(
        "--package",
        metavar="DIR",
        help="serve the asi_agent package in DIR (e.g. `git archive OLD asi_agent` unpacked): an A/B run",
    )
    args = parser.parse_args()
    load_before = [float(v) for v in Path("/proc/loadavg").read_text().split()[:3]]
    upstream = start_upstream(REPLIES[args.reply])
    with tempfile.TemporaryDirectory() as folder:
        gateway, process = start_gateway(upstream, Path(folder), args.package)
        try:
            used = cpu_seconds(process.pid)
            figures = asyncio.run(latency(upstream, gateway, args.rounds))
            # CPU the gateway spent per request it answered (2 per round and the warm-up's one): a figure
            # the other processes on the machine do not move, unlike the latencies.
            used = cpu_seconds(process.pid) - used
            figures["gateway_cpu_ms_per_request"] = round(used * 1000 / (2 * args.rounds + 1), 3)
            figures |= {"load": asyncio.run(load(gateway, args.requests, args.concurrency))}
            figures["gateway_peak_memory_mb"] = peak_memory_mb(process.pid)
            if args.router:
                router, home, router_pid = start_router(args.router, upstream, Path(folder))
                pids = {"gateway": process.pid, "router": router_pid}
                try:
                    figures |= asyncio.run(_compared(args, upstream, gateway, router, pids))
                finally:
                    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
                    subprocess.run(
                        [args.router, "stop"], env=env, capture_output=True, timeout=30, check=False
                    )
        finally:
            process.terminate()
            process.wait(10)
    figures["reply"] = args.reply
    figures["load_average_before"] = load_before
    figures["load_average"] = [float(v) for v in Path("/proc/loadavg").read_text().split()[:3]]
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key}: {value}")
    if figures["load"]["errors"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
