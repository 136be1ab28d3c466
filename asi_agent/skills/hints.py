"""Routing hints a skill's text already holds, beyond its front matter.

Authors say when to use a skill in three places the router can read without the model: the bullets of the
body's "When to use" section, the body's title, and the clauses of the description's "Use when A, B, or C"
sentence. Each becomes a passage of its own, so a short request meets a short phrase of the same kind
instead of a long description that also says many other things. They are read when the SKILL.md is parsed
(the whole file is read for its front matter anyway); the body itself still reaches the model only on use.
The body's section headings (after its title) and its first paragraph say what the skill covers in other
words than its description (`body_sections`); the router weighs them a little below the rest, since they
say less about when to use it.
"""

from __future__ import annotations

import re

__all__ = ["body_hints", "body_sections", "description_clauses"]

_WHEN = re.compile(
    r"^#{2,4}\s*(?:when to use|use this skill when|when to invoke|use when|when to apply|triggers?)\b.*$",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING = re.compile(r"^#{1,4}\s", re.MULTILINE)
_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_TITLE = re.compile(r"^#\s+(.+)$", re.MULTILINE)
_USE = re.compile(
    r"(?:Use (?:this skill |it )?(?:when|for|whenever)|Triggers? on|when (?:the )?users? "
    r"(?:asks?|wants?|requests?) to)\s*(.*?)(?:\.(?:\s|$)|$)",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(r",\s*(?:or\s+)?|\s+or\s+|;\s*")
_MAX_BULLETS = 12
_MAX_CHARS = 200
_SECTION = re.compile(r"^#{2,3}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_NUMBERED = re.compile(r"^(?:step\s*\d+[:.]?|\d+[.)])\s*", re.IGNORECASE)
_GENERIC = re.compile(
    r"^(?:when to|when not|use this|overview|purpose|introduction|core concepts|best practices|do'?s|"
    r"don'?ts|examples?|resources|references?|quick start|quick reference|usage|instructions|notes?|tips|"
    r"summary|related|prerequisites|requirements|setup|installation|output(?: format)?|workflow|"
    r"troubleshooting|common (?:pitfalls|mistakes)|anti-patterns|checklist|detailed|templates?|integration|"
    r"additional|further|limitations|key principles|guidelines|important|advanced|getting started|"
    r"configuration|the process|process|inputs?|outputs|scripts?|files|faq|contents?|table of contents|"
    r"background|context|core|principles|patterns?|rules|philosophy|success criteria|verification|testing|"
    r"validation)\b",
    re.IGNORECASE,
)
_MAX_SECTIONS = 20
_PARAGRAPH_CHARS = 300


def body_hints(body: str) -> tuple[str, ...]:
    """The body's title and the bullets of its "When to use" section (at most 12, each cut to 200)."""
    found: list[str] = []
    title = _TITLE.search(body)
    if title:
        found.append(title.group(1).strip()[:_MAX_CHARS])
    section = _WHEN.search(body)
    if section:
        rest = body[section.end() :]
        end = _HEADING.search(rest)
        bullets = 0
        for raw in (rest[: end.start()] if end else rest).splitlines():
            line = raw.strip()
            if _BULLET.match(line) and bullets < _MAX_BULLETS:
                text = _BULLET.sub("", line).replace("**", "").replace("`", "").strip()
                if len(text) > 8:
                    found.append(text[:_MAX_CHARS])
                    bullets += 1
    return tuple(dict.fromkeys(found))


def description_clauses(description: str) -> tuple[str, ...]:
    """The clauses of "Use when A, B, or C" sentences (quoted trigger phrases included)."""
    text = " ".join(description.split())
    found: list[str] = []
    for match in _USE.finditer(text):
        for raw in _CLAUSE_SPLIT.split(match.group(1)):
            part = raw.strip(" \"'“”")
            if len(part) > 6:
                found.append(part)
    return tuple(dict.fromkeys(found))


def body_sections(body: str) -> tuple[str, ...]:
    """The body's section headings that name a subject (each after the title: "Title: Heading"; the
    generic ones such as "Overview" or "Best Practices" left out; at most 20) and its first paragraph of
    prose (cut to 300 characters)."""
    text = _FENCE.sub("", body)
    title = _TITLE.search(text)
    prefix = title.group(1).strip() + ": " if title else ""
    found: list[str] = []
    for match in _SECTION.finditer(text):
        heading = _NUMBERED.sub("", re.sub(r"[*`_]", "", match.group(1)).strip()).strip()
        if len(heading) >= 4 and not _GENERIC.match(heading) and len(found) < _MAX_SECTIONS:
            found.append(prefix + heading)
    for block in re.split(r"\n\s*\n", text):
        paragraph = block.strip()
        if len(paragraph) >= 40 and not paragraph.startswith(("#", "|", "-", "*", ">", "<", "!", "[")):
            found.append(" ".join(paragraph.split())[:_PARAGRAPH_CHARS])
            break
    return tuple(dict.fromkeys(found))
