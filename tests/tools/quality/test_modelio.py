"""Reading model replies leniently: code fences and search/replace blocks as small models write them."""

from __future__ import annotations

from asi_agent.tools.quality.modelio import SearchReplace, extract_code_block, parse_search_replace


def test_code_blocks_with_or_without_language_or_fence() -> None:
    assert extract_code_block("Sure:\n```python\nx = 1\n```\nDone.") == "x = 1\n"
    assert extract_code_block("~~~\ny = 2\n~~~") == "y = 2\n"
    # The block in the wanted language wins over a longer one in another.
    reply = "```bash\npip install something long\n```\n```py\nz = 3\n```"
    assert extract_code_block(reply, "python") == "z = 3\n"
    assert extract_code_block(reply) == "pip install something long\n"
    assert extract_code_block("```python\nunclosed = True\n") == "unclosed = True\n"
    assert extract_code_block("def f():\n    return 1\n") == "def f():\n    return 1\n"
    assert extract_code_block("```\n```") is None
    assert extract_code_block("  \n") is None


def test_search_replace_blocks_with_paths_labels_and_loose_markers() -> None:
    reply = (
        "File: `src/app.py`\n```python\n<<<<<<<< SEARCH\nold()\n======\nnew()\n>>>>>>>  REPLACE\n```\n"
        "And also:\n**lib/util.py**\n<<<<<<< search\na\n=======\n>>>>>>> replace\n"
    )
    assert parse_search_replace(reply) == [
        SearchReplace("src/app.py", "old()", "new()"),
        SearchReplace("lib/util.py", "a", ""),
    ]


def test_malformed_blocks_carry_their_problem() -> None:
    edits = parse_search_replace("a.py\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n")
    assert edits == [
        SearchReplace("a.py", "x", "", "the block has no ======= line between its SEARCH and REPLACE parts")
    ]
    assert parse_search_replace("no edits here") == []

