"""The exception hierarchy, split by who can fix the problem.

    AsiError
    ├── UserError                 the person fixes it (exit code 1)
    │   ├── ConfigError           a bad config file, flag or environment value
    │   └── BackendError          the model server is unreachable, refuses us, or lacks the model
    │       ├── ToolsUnsupportedError   the server or model rejects native tool calling
    │       └── ContextOverflowError    the prompt is longer than the model's context window
    └── ModelFixableError         the model fixes it: its message goes back to the model, the loop goes on
        ├── CallFormatError       a call that cannot be parsed, or names an unknown tool
        ├── ToolArgumentsError    arguments that fail the tool's schema
        ├── ToolError             the tool ran and failed (missing file, ambiguous match, ...)
        └── PermissionDeniedError the policy or the person refused the call

Anything else is our own bug and propagates.
"""

from __future__ import annotations

__all__ = [
    "AsiError",
    "BackendError",
    "CallFormatError",
    "ConfigError",
    "ContextOverflowError",
    "ModelFixableError",
    "PermissionDeniedError",
    "ToolArgumentsError",
    "ToolError",
    "ToolsUnsupportedError",
    "UserError",
]


class AsiError(Exception):
    """Root of every error asi-agent raises on purpose."""


class UserError(AsiError):
    """A problem the person running asi-agent must fix; reported in one line, exit code 1."""


class ConfigError(UserError):
    """A bad configuration file, flag or environment value."""


class BackendError(UserError):
    """The model server is unreachable, rejected the request, or does not know the model."""


class ToolsUnsupportedError(BackendError):
    """The server or model does not accept native tool definitions."""


class ContextOverflowError(BackendError):
    """The server refused the request because the prompt does not fit the model's context window."""


class ModelFixableError(AsiError):
    """An error whose message is sent back to the model so that it can correct itself."""


class CallFormatError(ModelFixableError):
    """A tool call that cannot be parsed, or that names no registered tool."""


class ToolArgumentsError(ModelFixableError):
    """Tool arguments that do not satisfy the tool's parameters."""


class ToolError(ModelFixableError):
    """A tool ran and failed."""


class PermissionDeniedError(ModelFixableError):
    """The permission policy or the person refused the call."""
