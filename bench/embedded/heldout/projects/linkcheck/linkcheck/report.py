"""Turning crawl results into something readable."""

import json


def broken_links(results):
    """Links that failed to load or answered with an error status."""
    return sorted(
        url for url, status in results.items() if status is None or status >= 400
    )


def render_text(results):
    broken = broken_links(results)
    lines = [f"checked {len(results)} links, {len(broken)} broken"]
    lines += [f"  BROKEN {url}" for url in broken]
    return "\n".join(lines)


def write_json(results, path="report.json"):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"results": results, "broken": broken_links(results)}, fh, indent=2)
