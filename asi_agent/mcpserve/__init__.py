"""`asi-agent mcp`: MCP servers' state and sign-in, and asi-agent as an MCP server (a front end)."""
