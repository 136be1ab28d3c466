"""Ordinary requests through the agent and the embedded model: grounding plans the steps, the run's checks
decide the ending. Where grounding leaves one possible reply the model decodes nothing, so these runs
are quick; they still go through the real local backend, tools, journal and checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.assembly import assemble_agent
from asi_agent.backends.local import LocalBackend, LocalBackendConfig, find_embedded_model
from asi_agent.config import load_config
from asi_agent.events import RunFinished, ToolFinished

pytestmark = pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")

APP = 'from shop.util import load\n\nBANNER = "Hi there"\nprint(load("prices.txt"))\n'
UTIL = "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\n" + (
    "def area(r):\n    return 3.14 * r * r\n"
)
CONFIG = '[server]\nport = 8080\ndebug = false\nversion = "1.2.3"\n'
TESTS = (
    "from shop.util import area\n\n\ndef test_area():\n    assert area(1) > 3\n\n\n"
    "def test_zero():\n    assert area(0) == 0\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "shop").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "shop" / "util.py").write_text(UTIL)
    (tmp_path / "shop" / "__init__.py").write_text('__version__ = "1.2.3"\n')
    (tmp_path / "config.toml").write_text(CONFIG)
    (tmp_path / "tests" / "test_util.py").write_text(TESTS)
    return tmp_path


async def run(root: Path, task: str) -> tuple[RunFinished, list[ToolFinished]]:
    backend = LocalBackend(LocalBackendConfig(threads=1, seed=0))
    # yolo: the runtime runs the tests of a change before DONE (auto-edit would ask, and nobody answers)
    config = load_config(root, {"provider": "local", "approval": "yolo", "max_turns": 8})
    agent = assemble_agent(root, config, backend, interactive=False)
    end, tools = None, []
    try:
        async for event in agent.run(task):
            if isinstance(event, RunFinished):
                end = event
            elif isinstance(event, ToolFinished):
                tools.append(event)
    finally:
        await agent.runner.ctx.aclose()
        await backend.aclose()
    assert end is not None
    return end, tools


async def test_a_rename_reaches_every_file_that_uses_the_name(project: Path) -> None:
    end, _ = await run(project, "rename load to read_prices and update the caller in app.py")
    assert end.status == "DONE" and end.verified
    assert "def read_prices(path):" in (project / "shop" / "util.py").read_text()
    assert "import read_prices" in (project / "app.py").read_text()
    assert "load" not in (project / "app.py").read_text()


async def test_bump_the_version_in_both_places(project: Path) -> None:
    end, tools = await run(project, "bump the version in both places")
    # two edits, the runtime's tests before the first edit of a source file (the baseline) and after the last
    assert end.status == "DONE" and end.verified and len(tools) == 4
    assert [tool.call.name for tool in tools].count("run_tests") == 2
    assert tools[-1].call.name == "run_tests" and tools[-1].ok
    assert 'version = "1.2.4"' in (project / "config.toml").read_text()
    assert (project / "shop" / "__init__.py").read_text() == '__version__ = "1.2.4"\n'


async def test_say_a_instead_of_b(project: Path) -> None:
    end, _ = await run(project, "make the banner say Welcome instead of Hi")
    assert end.status == "DONE" and 'BANNER = "Welcome there"' in (project / "app.py").read_text()


async def test_a_setting_named_in_chinese(project: Path) -> None:
    end, _ = await run(project, "把 端口 改成 9090")
    assert end.status == "DONE" and "port = 9090" in (project / "config.toml").read_text()


async def test_use_a_constant_and_its_import(project: Path) -> None:
    end, _ = await run(project, "use math.pi instead of 3.14")
    text = (project / "shop" / "util.py").read_text()
    assert end.status == "DONE" and end.verified
    assert "import math" in text and "return math.pi * r * r" in text
    compile(text, "util.py", "exec")


async def test_a_count_is_a_number(project: Path) -> None:
    end, _ = await run(project, "how many tests are there")
    assert end.status == "DONE" and end.verified
    assert end.result.startswith("2 (test_area, test_zero")


async def test_a_location_is_path_and_line(project: Path) -> None:
    end, _ = await run(project, "where is area defined?")
    assert end.status == "DONE" and end.result == "shop/util.py:8: def area(r):"


async def test_a_value_in_a_big_file_is_read_by_its_lines(project: Path) -> None:
    filler = "".join(f"# line {n}\n" for n in range(5000))
    (project / "big.py").write_text(filler + "RETRY_LIMIT = 7\n" + filler)
    end, tools = await run(project, "what's the retry limit?")
    assert end.status == "DONE" and "RETRY_LIMIT = 7" in end.result
    assert tools[0].call.arguments == {"path": "big.py", "startLine": 5001, "endLine": 5007}


async def test_a_vague_request_ends_stop_with_a_suggestion(project: Path) -> None:
    end, tools = await run(project, "make it better")
    assert end.status == "STOP" and not tools
    assert "for example: in app.py, change `Hi` to `Welcome`" in end.result


async def test_a_change_with_no_stated_new_text_ends_stop_not_done(project: Path) -> None:
    end, _ = await run(project, "fix the area function in shop/util.py")
    assert end.status == "STOP" and not end.verified
    assert (project / "shop" / "util.py").read_text() == UTIL


async def test_a_count_the_files_do_not_hold_is_not_guessed(project: Path) -> None:
    end, _ = await run(project, "how many widgets are there?")
    assert end.status == "STOP" and "No exact answer: it asks for a count" in end.result


async def test_what_code_returns_for_an_input_is_not_guessed(project: Path) -> None:
    end, _ = await run(project, "what does area(2) return?")
    assert end.status == "STOP" and "result of running code" in end.result


async def test_a_text_described_in_words_is_found_by_them(project: Path) -> None:
    (project / "app.py").write_text('WELCOME_MESSAGE = "Welcome to the shop"\nprint(WELCOME_MESSAGE)\n')
    end, _ = await run(project, 'the welcome text should say "Happy shopping!" instead')
    assert end.status == "DONE" and end.verified
    assert (project / "app.py").read_text().startswith('WELCOME_MESSAGE = "Happy shopping!"')


async def test_a_guess_at_a_question_ends_stop_with_the_closest_line(project: Path) -> None:
    end, _ = await run(project, "what colour is the banner in app.py?")
    assert end.status == "STOP" and "No exact answer" in end.result


async def test_a_number_found_in_several_places_is_not_replaced_blindly(project: Path) -> None:
    end, _ = await run(project, "make it 5 instead of 3")
    assert end.status == "STOP"
    assert (project / "shop" / "util.py").read_text() == UTIL
