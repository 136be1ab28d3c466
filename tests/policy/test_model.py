"""Policy files: loading, extends, presets, and errors naming file, line and reason."""

import json
from pathlib import Path

import pytest

from asi_agent.exceptions import ConfigError
from asi_agent.policy import PRESETS, load_policy
from asi_agent.policy.model import Policy, preset_text

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, text) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    return path


def test_file_extends_a_preset(tmp_path):
    path = write(
        tmp_path,
        'name = "mine"\nextends = "default"\nmode = "auto-edit"\n[[rules]]\ntool = "run_tests"\n'
        'action = "allow"\n',
    )
    policy = load_policy(str(path), tmp_path)
    assert (policy.name, policy.mode) == ("mine", "auto-edit")
    assert policy.rules[0].tool == "run_terminal_cmd"  # the preset's rules come first
    assert policy.rules[-1].tool == "run_tests"


def test_the_home_folder_of_an_unknown_user_is_no_such_file(tmp_path):
    """Found by fuzzing: `~name` of no known user made Path.expanduser raise RuntimeError."""
    path = write(tmp_path, 'extends = "~efault"\nmode = "plan"\n')
    with pytest.raises(ConfigError, match="~efault: no such file, and not a preset"):
        load_policy(str(path), tmp_path)
    with pytest.raises(ConfigError, match="no such file"):
        load_policy("~efault/policy.toml", tmp_path)


def test_relative_policy_path_is_found_in_the_project(tmp_path):
    write(tmp_path, 'mode = "plan"\n')
    assert load_policy("policy.toml", tmp_path).mode == "plan"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('mode = "sometimes"\n', r"policy.toml, line 1: mode: Input should be"),
        (
            '[[rules]]\ntool = "*"\naction = "allow"\n\n[[rules]]\ntool = "x"\naction = "maybe"\n',
            r"policy.toml, line 7: rules.1.action",
        ),
        (
            '[[rules]]\naction = "deny"\nargs = { path = "([" }\n',
            r"line 3: rules.0.args: .*invalid regular expression",
        ),
        ('colour = "red"\n', r"line 1: colour: unknown key"),
        ("mode = \n", r"policy.toml: invalid TOML: .*line 1"),
        ('[[rules]]\ntool = "*"\n', r"line 1: rules.0.action: Field required"),
    ],
)
def test_errors_name_file_line_and_reason(tmp_path, text, expected):
    with pytest.raises(ConfigError, match=expected):
        load_policy(str(write(tmp_path, text)), tmp_path)


def test_policy_that_is_not_utf8_is_an_error_not_a_traceback(tmp_path):
    path = tmp_path / "policy.toml"
    path.write_bytes(b'mode = "\xff"\n')
    with pytest.raises(ConfigError, match=r"policy.toml: not UTF-8 text"):
        load_policy(str(path), tmp_path)


def test_unknown_preset_and_loops(tmp_path):
    with pytest.raises(ConfigError, match="not a preset"):
        load_policy("paranoid", tmp_path)
    path = write(tmp_path, 'extends = "policy.toml"\n')
    with pytest.raises(ConfigError, match="loops"):
        load_policy(str(path), tmp_path)


@pytest.mark.parametrize("name", PRESETS)
def test_reference_copies_match_the_shipped_presets(name):
    assert (ROOT / "policies" / f"{name}.toml").read_text() == preset_text(name)


def test_published_schema_matches_the_model():
    published = json.loads((ROOT / "policies" / "policy.schema.json").read_text())
    assert published == Policy.model_json_schema()
