"""The run's `SkillSession` from the configuration: the skills found, the embedder chosen, the cache."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from asi_agent.config import AsiConfig
from asi_agent.skills.registry import SkillSet, find_skills
from asi_agent.skills.router import SkillRouter
from asi_agent.skills.session import SkillSession
from asi_agent.skills.vectors import Embedder, ServerEmbedder, VectorCache, local_embedder
from asi_agent.userdirs import user_cache_dir, user_config_dir

__all__ = ["choose_embedder", "make_router", "skill_folders", "skill_session"]


def choose_embedder(config: AsiConfig) -> Embedder | None:
    """The embedder `skills.embeddings` asks for (None: lexical matching)."""
    section = config.skills
    mode = section.embeddings
    if mode == "auto":
        mode = "server" if section.embedding_model else "local"
    if mode == "lexical":
        return None
    if mode == "server" and section.embedding_model:
        if config.provider == "ollama":
            host = config.base_url or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
            return ServerEmbedder(host, section.embedding_model, api="ollama")
        if config.base_url:
            return ServerEmbedder(
                config.base_url, section.embedding_model, api="openai", api_key=config.api_key
            )
    return local_embedder()


def make_router(skills: SkillSet, config: AsiConfig) -> SkillRouter:
    """The router over `skills`, its vectors cached in the user's cache folder."""
    embedder = choose_embedder(config)
    cache = VectorCache(user_cache_dir()) if embedder is not None else None
    return SkillRouter(list(skills), embedder=embedder, cache=cache)


def skill_session(
    root: Path, config: AsiConfig, *, trusted: bool, warn: Callable[[str], None] | None = None
) -> SkillSession | None:
    """The run's skills and their router; None when no skill is found (no tool is added then)."""
    skills = find_skills(root, user_config_dir(), trusted=trusted)
    if warn is not None:
        for problem in skills.problems:
            warn(f"skill left out: {problem}")
    if not len(skills):
        return None
    return SkillSession(skills, make_router(skills, config), max_listed=config.skills.max_listed)


def skill_folders(session: SkillSession) -> tuple[Path, ...]:
    """The folders of the run's skills, which tools may read (never write) though outside the project."""
    return tuple(skill.folder for skill in session.skills)
