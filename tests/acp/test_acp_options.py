"""`asi-agent acp` takes the sandbox's options as `run` does."""

from __future__ import annotations

import argparse

from asi_agent.acp.options import add_acp_parser
from asi_agent.runsettings import config_flags


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_acp_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["acp", *argv])


def test_the_sandbox_options_reach_the_configuration() -> None:
    assert config_flags(_parse())["sandbox"] is None
    assert config_flags(_parse("--no-sandbox"))["sandbox"] == {"enabled": False}
    assert config_flags(_parse("--allow-network"))["sandbox"] == {"network": True}
