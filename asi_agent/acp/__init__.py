"""`asi-agent acp`: the Agent Client Protocol agent that editors (Zed, JetBrains IDEs, Neovim) start.

A front end like the chats: it builds one agent per editor session with `asi_agent.assembly` and turns
its events into the protocol's session updates. Importing this package loads nothing of the protocol's
SDK: `options` is argparse only, the rest is imported when the command runs.
"""
