"""The decision for each mode × each risk grade of the corpus, yolo's outside-target refusals, and
the read-only allow-list losing commands that write. Commands are data: decided, never run."""

from pathlib import Path

import pytest
from danger_corpus import CATASTROPHIC, DESTRUCTIVE, EVERYDAY

from asi_agent.policy import Policy, Rule, decide, load_policy
from asi_agent.policy.approval import mode_action
from asi_agent.policy.engine import CLASSIFIER
from asi_agent.policy.scope import outside_target

MODES = ("ask", "auto-edit", "plan", "yolo")
ALLOW_COMMANDS = Policy(name="allow-commands", rules=[Rule(tool="run_terminal_cmd", action="allow")])


def decide_command(command: str, mode: str, root: Path, policy: Policy = ALLOW_COMMANDS):
    return decide("run_terminal_cmd", "execute", {"command": command}, policy=policy, mode=mode, root=root)


@pytest.mark.parametrize("mode", MODES)
def test_catastrophic_is_refused_in_every_mode_naming_the_classifier(tmp_path, mode):
    for command, _, _ in CATASTROPHIC:
        decision = decide_command(command, mode, tmp_path)
        assert decision.action == "deny", (mode, command)
        assert decision.rule == CLASSIFIER and "\n" not in decision.reason


@pytest.mark.parametrize("mode", ["ask", "auto-edit"])
def test_destructive_asks_as_the_classifier_even_where_rules_allow(tmp_path, mode):
    for command, _, _ in DESTRUCTIVE:
        decision = decide_command(command, mode, tmp_path)
        assert decision.action in ("ask", "deny"), (mode, command)
        assert decision.rule == CLASSIFIER, (mode, command, decision)


def test_destructive_in_plan_mode_is_refused(tmp_path):
    for command, _, _ in DESTRUCTIVE[:50]:
        assert decide_command(command, "plan", tmp_path, Policy()).action == "deny"


@pytest.mark.parametrize("mode", MODES)
def test_everyday_commands_get_what_the_mode_gives_or_at_most_a_few_questions(tmp_path, mode):
    expected = mode_action(mode, "execute")  # type: ignore[arg-type]
    decisions = [(c, decide_command(c, mode, tmp_path, Policy())) for c, _, _ in EVERYDAY]
    network = {c for c, d in decisions if "network" in d.reason}
    stricter = [c for c, d in decisions if d.action != expected and c not in network]
    assert not [c for c, d in decisions if d.action == "deny" and expected != "deny"]
    assert len(stricter) <= 0.03 * len(decisions), stricter


def test_yolo_refuses_destructive_targets_outside_the_project(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "link").symlink_to("/usr/share")
    refused = [
        "rm -rf ~/projects/old", "rm -rf $HOME/.cache", "rm -rf /opt/app/data", "rm -rf link/",
        "rm -rf $BUILD_DIR", "cd ~/work && rm -rf src", "git push --force", "terraform destroy",
        "psql -c 'DROP TABLE users'", "find ~/notes -delete", "ls | xargs rm", "kubectl delete ns prod",
        'rm -rf "a\x00b/x"',
    ]  # fmt: skip
    for command in refused:
        decision = decide_command(command, "yolo", tmp_path, Policy())
        assert decision.action == "deny", command
        assert decision.rule == CLASSIFIER and "not inside the project" in decision.reason
    allowed = [
        "rm -rf src",
        "git reset --hard",
        "git clean -fdx",
        "rm -rf /tmp/scratch-dir",
        "rm -rf ./src/*",
    ]
    for command in allowed:
        assert decide_command(command, "yolo", tmp_path, Policy()).action == "allow", command


def test_yolo_resolves_relative_targets_from_the_commands_cwd(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    # a pure judgement of paths (nothing is touched): a project outside /tmp, so scratch cannot hide it
    project = Path("/usr/share")
    assert outside_target(["../x"], project, cwd=project / "doc") is None
    assert outside_target(["../x"], project) == "../x"
    escape = "../" * (len(tmp_path.parts) + 2) + "opt/old"  # from a/b up past / (the project is under /tmp)
    call = {"command": f"rm -rf {escape}", "cwd": "a/b"}
    decision = decide("run_terminal_cmd", "execute", call, policy=Policy(), mode="yolo", root=tmp_path)
    assert decision.action == "deny" and "not inside the project" in decision.reason


def test_yolo_allow_dirs_count_as_inside(tmp_path, tmp_path_factory):
    shared = tmp_path_factory.mktemp("shared")
    command = f"rm -rf {shared}/old"
    decision = decide_command(command, "yolo", tmp_path, Policy(allow_dirs=[shared]))
    assert decision.action == "allow"


WRITING = [
    "find . -name x -delete", "find . -name '*.py' -exec wc -l {} +", "find . -name x -fprint out.txt",
    "git diff --output=patch.diff", "git log --output=../x", "rg --pre ./decode.sh secret",
    "tree -o tree.txt",
    "sort -o data.txt data.txt", "sed -i s/a/b/ file", "git branch -f main HEAD~1", "git branch -D old",
    "git branch -M main", "git branch --force main", "git branch newname",
]  # fmt: skip
READING = [
    "find . -name '*.py'",
    "git diff HEAD~1",
    "git log -n 3",
    "git branch -a",
    "rg -n TODO src",
    "tree src",
]


def test_read_only_allow_list_loses_commands_with_writing_options(tmp_path):
    policy = load_policy("default", tmp_path)
    policy = policy.model_copy(update={"rules": [
        *policy.rules,
        Rule(tool="run_terminal_cmd", command=["sort", "sed", "tree", "find ."], action="allow"),
    ]})  # fmt: skip
    for command in WRITING:
        decision = decide_command(command, "ask", tmp_path, policy)
        assert decision.action == "ask", command
    for command in READING:
        assert decide_command(command, "ask", tmp_path, policy).action == "allow", command


def test_redirection_never_matches_an_allow_list(tmp_path):
    policy = load_policy("default", tmp_path)
    assert decide_command("cat a.txt", "ask", tmp_path, policy).action == "allow"
    assert decide_command("cat a.txt > b.txt", "ask", tmp_path, policy).action == "ask"
