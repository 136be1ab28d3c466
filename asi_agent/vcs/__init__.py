"""Git: the repository through the `git` program (without one a project behaves as if it had no repo),
run so that nothing the repository configures can start a program (`gitcmd`).

    asi_agent.vcs.gitcmd       GitCommand, git_command            how every git process is started

    asi_agent.vcs.repo         GitRepo, open_repo                 the repository
    asi_agent.vcs.summary      git_context                        the prompt's summary (plain `git`)
    asi_agent.vcs.checkpoints  create / list / restore / diff     snapshots on private refs
    asi_agent.vcs.session      GitSession                         checkpoint before the first write,
                                                                  auto-commit after a completed task
"""
