"""Git: the repository through gitpython (imported lazily; without a `git` binary a project behaves as if
it had no repo), and the prompt's summary straight from `git`.

    asi_agent.vcs.repo         GitRepo, open_repo                 the repository
    asi_agent.vcs.summary      git_context                        the prompt's summary (plain `git`)
    asi_agent.vcs.checkpoints  create / list / restore / diff     snapshots on private refs
    asi_agent.vcs.session      GitSession                         checkpoint before the first write,
                                                                  auto-commit after a completed task
"""
