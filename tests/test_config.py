from pathlib import Path

import pytest

from asi_agent.config import load_config
from asi_agent.exceptions import ConfigError


@pytest.fixture
def user_dir(tmp_path, monkeypatch):
    folder = tmp_path / "user"
    folder.mkdir()
    monkeypatch.setenv("ASI_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / ".asi").mkdir(parents=True)
    return root


def test_defaults(user_dir, project):
    config = load_config(project, env={})
    assert config.provider is None
    assert config.tool_mode == "auto"
    assert config.approval is None  # the policy's mode applies
    assert config.max_turns == 30
    assert config.tool_locale == "en"


@pytest.mark.parametrize(
    ("env", "locale"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),  # LC_ALL wins over LANG
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_tool_locale_follows_the_users_locale(user_dir, project, env, locale):
    assert load_config(project, env=env).tool_locale == locale


def test_a_configured_tool_locale_wins_over_the_users_locale(user_dir, project):
    (user_dir / "config.toml").write_text('tool_locale = "en"\n')
    assert load_config(project, env={"LANG": "zh_CN.UTF-8"}).tool_locale == "en"


def test_precedence_flags_env_project_user(user_dir, project):
    (user_dir / "config.toml").write_text(
        'model = "user"\nmax_turns = 5\ntool_locale = "en"\n[ollama]\nnum_ctx = 4096\n'
    )
    (project / ".asi" / "config.toml").write_text('model = "project"\nmax_turns = 6\n')
    env = {"ASI_MODEL": "env"}
    assert load_config(project, env=env).model == "env"
    assert load_config(project, {"model": "flag"}, env=env).model == "flag"
    config = load_config(project, env={}, trusted=True)  # untrusted, a project cannot choose the model
    assert config.model == "project"
    assert config.max_turns == 6
    assert config.tool_locale == "en"  # only the user file sets it
    assert config.ollama.num_ctx == 4096


def test_nested_sections_merge_key_by_key(user_dir, project):
    (user_dir / "config.toml").write_text("[local]\nn_ctx = 2048\nthreads = 2\n")
    (project / ".asi" / "config.toml").write_text("[local]\nthreads = 1\n")
    config = load_config(project, env={})
    assert config.local.n_ctx == 2048
    assert config.local.threads == 1


def test_environment_variables(user_dir, project):
    env = {"ASI_PROVIDER": "ollama", "OLLAMA_HOST": "127.0.0.1:9999", "OPENAI_API_KEY": "sk-x"}
    config = load_config(project, env=env)
    assert config.provider == "ollama"
    assert config.base_url == "127.0.0.1:9999"
    assert config.api_key == "sk-x"
    config = load_config(project, env={"OPENAI_BASE_URL": "http://h/v1", "ASI_API_KEY": "k"})
    assert (config.base_url, config.api_key) == ("http://h/v1", "k")


def test_bad_value_names_file_and_key(user_dir, project):
    path = project / ".asi" / "config.toml"
    path.write_text('max_turns = "many"\n')
    with pytest.raises(ConfigError) as info:
        load_config(project, env={})
    message = str(info.value)
    assert str(path) in message and "'max_turns'" in message and "integer" in message
    assert "\n" not in message


def test_unknown_key_and_nested_key(user_dir, project):
    (user_dir / "config.toml").write_text("[ollama]\nnum_ctxx = 1\n")
    with pytest.raises(ConfigError, match=r"config.toml: key 'ollama.num_ctxx': unknown key"):
        load_config(project, env={})


def test_invalid_toml_is_reported_with_position(user_dir, project):
    (project / ".asi" / "config.toml").write_text("model = \n")
    with pytest.raises(ConfigError, match=r"invalid TOML: .*line 1"):
        load_config(project, env={})


def test_config_that_is_not_utf8_is_an_error_not_a_traceback(user_dir, project):
    (project / ".asi" / "config.toml").write_bytes(b"max_tur\xees = 30\n")  # found by bench/fuzz.py
    with pytest.raises(ConfigError, match=r"config.toml: not UTF-8 text \(byte 7\)"):
        load_config(project, env={})


def test_bad_environment_value_names_variable(user_dir, project):
    with pytest.raises(ConfigError, match=r"environment: key 'ASI_PROVIDER'"):
        load_config(project, env={"ASI_PROVIDER": "skynet"})
