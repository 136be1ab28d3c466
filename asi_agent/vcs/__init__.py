"""Git, through gitpython (imported lazily; without a `git` binary a project behaves as if it had no repo).

    asi_agent.vcs.repo         GitRepo, open_repo, git_context    the repository and the prompt's summary
    asi_agent.vcs.checkpoints  create / list / restore / diff     snapshots on private refs
    asi_agent.vcs.session      GitSession                         checkpoint before the first write,
                                                                  auto-commit after a completed task
"""

from __future__ import annotations

from asi_agent.vcs.repo import GitRepo, git_context, open_repo

__all__ = ["GitRepo", "git_context", "open_repo"]
