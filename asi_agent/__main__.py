"""`python -m asi_agent` is the `asi-agent` command."""

from asi_agent.ui.cli import entry

entry()
