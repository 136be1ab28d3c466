"""Execution tools: shell commands and background processes (`terminal`), test runs (`testing`, `junit`)
and linting (`lint`).
"""
