"""User interfaces: the command line (headless runs) and, later, the TUI. Only `ui/` talks to people."""
