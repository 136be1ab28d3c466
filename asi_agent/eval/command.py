"""`asi-agent eval` and `asi-agent eval compare`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from asi_agent.config import AsiConfig, load_config
from asi_agent.eval.metrics import summarize
from asi_agent.eval.report import Progress, compare_table, load_run, results_table, task_difference
from asi_agent.eval.runner import EvalSettings, script_path
from asi_agent.eval.scale import Job, isolated_user_config, run_local, run_ray
from asi_agent.eval.suite import BUILTIN_SUITE, EvalTask, load_suite
from asi_agent.exceptions import UserError

__all__ = ["compare_command", "eval_command"]


def eval_command(args: argparse.Namespace) -> int:
    """Run the suite, print the table, write JSON with `--output`."""
    if getattr(args, "eval_command", None) == "compare":
        return compare_command(args)
    suite = Path(os.path.expanduser(args.suite)).resolve() if args.suite else BUILTIN_SUITE
    tasks = load_suite(suite, args.filter or ())
    config = load_config(Path.cwd(), _flags(args))
    if config.tools is None:  # an evaluation measures the ASI protocol: its 24 tools, no extensions
        config = config.model_copy(update={"tools": "asi"})
    settings = EvalSettings(
        config=config.model_dump(mode="json"), approval=args.approval, max_turns=args.max_turns
    )
    if config.provider == "scripted":
        _check_scripts(tasks, settings)
    jobs: list[Job] = [(task, n) for task in tasks for n in range(args.repeat)]
    progress = Progress(len(jobs), sys.stderr)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    interrupted = False
    with isolated_user_config():
        try:
            if args.ray is not None:
                results = run_ray(jobs, settings, args.ray or None, progress.advance)
            else:
                results = run_local(jobs, settings, args.jobs, progress.advance)
        except KeyboardInterrupt:  # report what finished rather than losing it
            results, interrupted = progress.results, True
            print(f"\nasi-agent: interrupted; reporting the {len(results)} finished task(s)", file=sys.stderr)
    run = {
        "version": 1,
        "suite": "builtin" if suite == BUILTIN_SUITE else str(suite),
        "provider": config.provider or "auto",
        "model": _model_name(results, config),
        "tool_mode": config.tool_mode,
        "started": started,
        "repeat": args.repeat,
        "engine": "ray" if args.ray is not None else f"local, {args.jobs} job(s)",
        "interrupted": interrupted,
        "metrics": summarize(results),
        "tasks": results,
    }
    print(results_table(run))
    if args.output:
        Path(args.output).write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"results written to {args.output}", file=sys.stderr)
    return 130 if interrupted else 0


def compare_command(args: argparse.Namespace) -> int:
    """Show two result files side by side, metric by metric and task by task."""
    a, b = load_run(Path(args.first)), load_run(Path(args.second))
    if (difference := task_difference(a, b, (args.first, args.second))) is not None:
        if not args.different_tasks:
            raise UserError(
                f"{difference}: their metrics measure different things. Run both on the same tasks, or "
                "pass --different-tasks to compare them anyway"
            )
        print(f"asi-agent: warning: {difference}; the metrics below cover different tasks", file=sys.stderr)
    print(compare_table(a, b, (Path(args.first).stem, Path(args.second).stem)))
    return 0


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    flags: dict[str, Any] = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "tool_mode": args.tool_mode,
        "policy": args.policy,
    }
    if args.call_format is not None:
        if "call_format" not in AsiConfig.model_fields:
            raise UserError("--call-format is not supported by this version of asi-agent")
        flags["call_format"] = args.call_format
    return flags


def _check_scripts(tasks: list[EvalTask], settings: EvalSettings) -> None:
    missing = [task.id for task in tasks if not script_path(task, settings).is_file()]
    if missing:
        name = settings.config.get("model") or "script.json"
        raise UserError(f"--provider scripted: no {name} in task(s) {', '.join(missing[:5])}")


def _model_name(results: list[dict[str, Any]], config: AsiConfig) -> str:
    for result in results:
        for record in result["transcript"]:
            if record.get("type") == "run":
                return str(record.get("model"))
    return config.model or "?"
