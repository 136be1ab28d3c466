"""The read-only allow-list reads options the way each program does: grouped short options, values
attached or after `=`, abbreviated long options. Table-driven: every command below is allowed by a
command-prefix rule, and must run unasked (READS) or ask (WRITES) in ask mode. And reading a secret
through a command asks, as `read_file` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.policy import decide, load_policy
from asi_agent.policy.model import Rule

# Programs a person may add to the allow-list beside the default ones (ls, cat, grep, rg, tree, git …).
EXTRA = ["sort", "sed", "awk", "gawk", "find", "env", "xargs", "less", "more", "man", "uniq", "tee"]
EXTRA += ["git grep", "git stash"]

WRITES = [
    # tree: -o FILE writes, in any group; -R writes 00Tree.html files
    "tree -o out.txt", "tree -ao out.txt", "tree -aoout.txt", "tree -L 2 -o out.txt", "tree -La 2 -o f",
    "tree -R -H . .", "tree --output=out.txt", "tree --output out.txt", "tree --out=f",
    # sort: -o, -T, --compress-program, abbreviations
    "sort -o out in", "sort -ro out in", "sort -rout in", "sort -oout in", "sort -u -o out in",
    "sort --output=out in", "sort --output out in", "sort --out=out in", "sort --o=out in",
    "sort --compress-program=sh in", "sort --comp=sh in", "sort -T /tmp in", "sort -k2 -o out in",
    "sort in -o out",
    # find: actions that delete, run or write
    "find . -name x -delete", "find . -name '*.py' -exec wc -l {} +", "find . -execdir rm {} ;",
    "find . -ok rm {} ;", "find . -name x -fprint out.txt", "find . -name x -fprintf out %p",
    "find . -fls out",
    # git: options that write files or run programs
    "git diff --output=patch.diff", "git diff --output patch.diff", "git diff --out=patch.diff",
    "git log --output=../x", "git log -p --outp=x", "git show --ext-diff", "git diff --ext",
    "git diff --textconv",
    "git -c core.pager=sh log", "git -ccore.pager=sh log", "git --config-env=core.pager=X log",
    "git --exec-path=/tmp log", "git -p log", "git --paginate log", "git -C sub -c a.b=c status",
    "git branch -f main HEAD~1", "git branch -D old", "git branch -M main", "git branch --force main",
    "git branch -vD old", "git branch --del old", "git branch --mo a b", "git branch --edit-description",
    "git branch newname", "git stash drop", "git stash pop", "git grep -Oecho x",
    "git grep --open-files-in-pager=sh x",
    # rg: programs run on every file
    "rg --pre ./decode.sh secret", "rg --pre=./decode.sh secret", "rg -z TODO", "rg -iz TODO",
    "rg --search-zip TODO", "rg --hostname-bin=./h x",
    # sed: in place, script files, and the w / e commands
    "sed -i s/a/b/ file", "sed -ni s/a/b/p file", "sed -Ei s/a/b/ file", "sed --in-place s/a/b/ file",
    "sed --in s/a/b/ file", "sed -f script.sed file", "sed -n 'w out' file", "sed -n '1w out' file",
    "sed -n '/x/w out' file", "sed 's/a/b/w out' file", "sed 's/a/b/e' file", "sed 's/a/b/ge' file",
    "sed -e p -e 'w out' file", "sed -ne 'w out' file", "sed '1e ls' file", "sed '$W out' file",
    # awk: programs that run commands or write, and options that write or load code
    "awk '{system(\"ls\")}' f", "awk '{print > \"out\"}' f", "awk '{print | \"sh\"}' f",
    "awk 'BEGIN{\"date\" | getline d}'", "awk -f prog.awk f", "awk -v x=1 -f prog.awk f",
    "gawk --profile=out '{print}' f", "gawk -o '{print}' f", "gawk --dump-variables '{print}' f",
    "gawk -l ext '{print}' f", "gawk --source='BEGIN{}' f",
    # env and xargs run commands
    "env sh -c id", "env -i sh", "env FOO=1 sh", "env -u HOME sh", "env -S 'sh -c id'",
    "env --split-string=sh",
    "env --sp=sh", "env -- sh", "xargs rm", "xargs",
    # less, more and man: logs, key files, shell escapes, pagers
    "less -o log.txt file", "less -Olog.txt file", "less --log-file=log.txt file", "less '+!sh' file",
    "more '+!sh' file", "less -k keys file", "man -P sh ls", "man -Psh ls", "man --pager=sh ls",
    "man --pag=sh ls", "man -H firefox ls", "man --html=firefox ls",
    # tee and uniq write their files
    "tee out.txt", "tee -a out.txt", "uniq in out", "uniq -c in out", "uniq -f 1 in out",
]  # fmt: skip

READS = [
    "tree", "tree src", "tree -a", "tree -L 2 src", "tree -P '*.py' -a", "tree -I node_modules",
    "tree -afL 3",
    "sort in", "sort -r -k 2 in", "sort -k2 in", "sort -t, -k2 in", "sort -u in", "sort --reverse in",
    "sort --key 2 in",
    "find . -name '*.py'", "find . -name x -print", "find . -name x -type f",
    "git diff HEAD~1", "git diff --stat", "git diff --text", "git diff -U3 a b", "git log -n 3", "git log -p",
    "git log --oneline", "git show HEAD", "git branch -a", "git branch -vv", "git branch --list",
    "git branch -r --contains HEAD", "git stash list", "git status", "git grep TODO",
    "rg -n TODO src", "rg -i -e todo src", "rg --pre-glob '*.gz' x", "rg -g '*.py' -t py x",
    "sed -n p file", "sed -n '1,5p' file", "sed 's/a/b/g' file", "sed -e 's/x/y/' file",
    "sed -E 's/(a)/\\1/' f",
    "awk '{print $1}' f", "awk -F: '{print $1}' f", "awk -v x=1 '{print x}' f", "gawk 'NR == 3' f",
    "env", "env -0", "env -u HOME",
    "less file", "less -N file", "less -p pattern file", "more file", "man ls", "man 3 printf",
    "uniq in", "uniq -c in", "tee", "ls -la", "cat a.txt", "head -n 5 a.txt", "tail -f log", "wc -l a.txt",
    "grep -rn TODO src",
]  # fmt: skip


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory):
    """The default policy with the extra programs allowed, as a person would add them."""
    base = load_policy("default", tmp_path_factory.mktemp("p"))
    extra = Rule(tool="run_terminal_cmd", command=EXTRA, action="allow", reason="read-only command")
    return base.model_copy(update={"rules": [*base.rules, extra]})


def _action(command: str, policy, root: Path) -> str:
    return decide(
        "run_terminal_cmd", "execute", {"command": command}, policy=policy, mode="ask", root=root
    ).action


@pytest.mark.parametrize("command", WRITES)
def test_a_writing_or_running_option_in_any_spelling_asks(command: str, policy, tmp_path: Path):
    assert _action(command, policy, tmp_path) == "ask"


@pytest.mark.parametrize("command", READS)
def test_plain_reads_still_run_unasked(command: str, policy, tmp_path: Path):
    assert _action(command, policy, tmp_path) == "allow"


SECRETS = [
    "cat .env", "cat .env.local", "cat ./config/.env", "cat /proc/self/environ", "cat /proc/1/environ",
    "head -n 3 server.pem", "cat ~/.ssh/id_ed25519", "cat id_rsa", "grep KEY .env", "cat .env*",
    "cat .git-credentials", "tail ~/.bash_history", "rg --file=.env x",
]  # fmt: skip


@pytest.mark.parametrize("command", SECRETS)
def test_reading_a_secret_through_a_command_asks_as_read_file_does(command: str, policy, tmp_path: Path):
    decision = decide(
        "run_terminal_cmd", "execute", {"command": command}, policy=policy, mode="ask", root=tmp_path
    )
    assert (decision.action, decision.rule) == ("ask", "secrets")
    assert (
        decide("read_file", "read", {"path": ".env"}, policy=policy, mode="ask", root=tmp_path).action
        == "ask"
    )


def test_files_that_only_look_a_little_like_secrets_are_plain_reads(policy, tmp_path: Path):
    for command in ("cat env.py", "cat environment.md", "cat id_utils.py", "cat *.py", "cat docs/keys.md"):
        assert _action(command, policy, tmp_path) == "allow", command
