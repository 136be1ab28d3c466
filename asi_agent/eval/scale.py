"""Where eval tasks run: one after another, in parallel threads (`--jobs N`), or as Ray tasks (`--ray`).

Every path calls the same `run_task`, so the results do not depend on where a task ran. A Ray task
receives its task folder as bytes (fixture, verifier, script), unpacks it in the worker's temporary
folder and returns the result with its transcript.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from asi_agent.eval.reuse import new_base
from asi_agent.eval.runner import EvalSettings, run_task
from asi_agent.eval.suite import EvalTask, pack_task, unpack_task
from asi_agent.exceptions import UserError

__all__ = ["Job", "isolated_user_config", "run_local", "run_ray"]

Job = tuple[EvalTask, int]
"""A task and its repeat number."""
OnDone = Callable[[dict[str, Any]], None]


@contextmanager
def isolated_user_config() -> Iterator[Path]:
    """An empty user config folder for the run: a person's own prompt or plugins must not leak in."""
    before = os.environ.get("ASI_CONFIG_DIR")
    with tempfile.TemporaryDirectory(prefix="asi-eval-user-") as folder:
        os.environ["ASI_CONFIG_DIR"] = folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                os.environ.pop("ASI_CONFIG_DIR", None)
            else:
                os.environ["ASI_CONFIG_DIR"] = before


def run_local(
    jobs: Sequence[Job], settings: EvalSettings, workers: int, on_done: OnDone
) -> list[dict[str, Any]]:
    """Run every job on this machine, `workers` at a time; results in job order."""
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    pool = ThreadPoolExecutor(max_workers=workers)
    with new_base() as base:
        futures = {
            pool.submit(run_task, task, settings, repeat, Path(base)): i
            for i, (task, repeat) in enumerate(jobs)
        }
        try:
            for future in as_completed(futures):
                result = future.result()
                results[futures[future]] = result
                on_done(result)
        finally:  # on an interrupt, tasks still running are abandoned: the process ends right after
            pool.shutdown(wait=False, cancel_futures=True)
    return [r for r in results if r is not None]


def _remote_task(
    files: dict[str, bytes], task_id: str, settings: dict[str, Any], repeat: int
) -> dict[str, Any]:
    """The body of a Ray task: unpack the shipped task folder, run it, return result and transcript."""
    with new_base() as tmp, tempfile.TemporaryDirectory(prefix="asi-eval-task-") as shipped:
        user = Path(shipped) / "user-config"
        user.mkdir()
        os.environ["ASI_CONFIG_DIR"] = str(user)
        task = unpack_task(files, Path(shipped) / task_id)
        # The same folder layout as a local run, so that prompts (and token counts) are the same.
        return run_task(task, EvalSettings.model_validate(settings), repeat, Path(tmp))


def run_ray(
    jobs: Sequence[Job], settings: EvalSettings, address: str | None, on_done: OnDone
) -> list[dict[str, Any]]:
    """Run every job as a Ray task on the cluster at `address` (None: a local instance for this run)."""
    try:
        import ray  # noqa: PLC0415 - optional extra, heavy
    except ImportError:
        raise UserError("--ray needs Ray: pip install 'asi-agent[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        # A new local instance needs no dashboard; an existing cluster refuses start-up options.
        options: dict[str, Any] = {"address": address} if address else {"include_dashboard": False}
        ray.init(log_to_driver=False, **options)
    try:
        remote = ray.remote(num_cpus=1)(_remote_task)
        refs = [
            remote.remote(pack_task(task), task.id, settings.model_dump(), repeat) for task, repeat in jobs
        ]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[dict[str, Any] | None] = [None] * len(refs)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            result: dict[str, Any] = ray.get(done[0])
            results[index[done[0]]] = result
            on_done(result)
        return [r for r in results if r is not None]
    finally:
        if started_here:
            ray.shutdown()
