"""Custom commands in the Textual chat: listed by `/help`, completed, and sent as their prompt."""

from __future__ import annotations

from chat_helpers import call, complete, complete_and_send, make_app, reply, send, until

from asi_agent.ui.tui.screens import ApprovalScreen
from asi_agent.ui.tui.widgets import Notice, ToolCard


def last_notice(app) -> str:
    return str(list(app.query(Notice))[-1].render())


def commands(project, user_config) -> None:
    folder = project / ".claude" / "commands"
    folder.mkdir(parents=True)
    (folder / "review.md").write_text(
        "---\ndescription: Review a folder for bugs\nargument-hint: PATH\nallowed-tools: Read\n---\n"
        "Review $1 now.\n"
    )
    (user_config / "commands").mkdir()
    (user_config / "commands" / "standup.toml").write_text(
        'description = "Write my standup"\nprompt = "Standup: {{args}}"\n'
    )


async def test_help_lists_the_custom_commands(project, user_config):
    commands(project, user_config)
    app = make_app(project, [])
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/help")
        await pilot.pause()
        shown = last_notice(app)
        assert "/review" in shown and "Review a folder for bugs PATH" in shown and ".claude/commands" in shown
        assert "/standup" in shown and "Write my standup" in shown and "user commands" in shown


async def test_custom_command_completes_and_sends_its_prompt(project, user_config):
    commands(project, user_config)
    app = make_app(project, [reply("Looks fine.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        sent = await complete_and_send(pilot, "/rev", "/review ", "src/")
        assert sent == ["Review src/ now."]
        assert app.chat.agent.runner.registry.names() != ("read_file",)  # narrowed for that message only


async def test_a_child_agents_calls_show_nested_under_the_task_call(project):
    replies = [
        reply(
            "", call("task", description="look", prompt="What does calc.py define?", subagent_type="explore")
        ),
        reply("", call("read_file", path="calc.py")),
        reply("It defines add.\nAGENT_STATUS: DONE"),
        reply("calc.py defines add.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, replies)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "what is in calc.py?")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        cards = list(app.query(ToolCard))
        assert [card.heading.split("  ")[0] for card in cards] == ["✓ task", "✓ ↳ explore › read_file"]
        assert cards[1].has_class("child") and "def add" in cards[1].output


async def test_a_child_agents_question_is_asked_in_the_chat(project, user_config):
    (user_config / "agents").mkdir()
    (user_config / "agents" / "writer.md").write_text(
        "---\nname: writer\ndescription: writes\ntools: Write\n---\n"
    )
    replies = [
        reply("", call("task", description="note", prompt="Write note.txt", subagent_type="writer")),
        reply("", call("create_file", path="note.txt", content="from the child\n")),
        reply("Wrote note.txt.\nAGENT_STATUS: DONE"),
        reply("The writer wrote note.txt.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, replies)  # ask mode: the task call and the child's write both ask
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "delegate the note")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        assert app.screen.request.call.name == "task"
        await pilot.press("y")
        await until(
            pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.request.call.name != "task"
        )
        asked = app.screen.request.call
        assert asked.name == "create_file" and asked.id.count("/") == 1  # TASK-ID/CALL-ID
        await pilot.press("y")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert (project / "note.txt").read_text() == "from the child\n"


def skills(user_config) -> None:
    folder = user_config / "skills" / "pdf-forms"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pdf-forms\ndescription: Fill in PDF forms and extract their fields.\n---\nSteps.\n"
    )


async def test_help_lists_the_skills_beside_the_commands_and_a_skill_completes(project, user_config):
    commands(project, user_config)
    skills(user_config)
    app = make_app(project, [])
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "/help")
        await pilot.pause()
        shown = last_notice(app)
        assert "/review" in shown and "Skills (/NAME loads one" in shown
        assert "/pdf-forms" in shown and "Fill in PDF forms and extract their fields." in shown
        assert shown.index("/review") < shown.index("/pdf-forms")
        await complete(pilot, "/pdf", "/pdf-forms ")
