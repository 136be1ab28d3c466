# ruff: noqa: E501 - data: one entry per line reads better than wrapped strings
"""Where the commands of the classifier corpus come from: public test suites, guards and incident reports.

Every corpus entry names one key. A key names the suite, guard, document or incident the entry comes
from, or whose rule or safe-list the entry exercises: most entries were written here (other spellings,
wrappers, targets of the listed commands), not copied. `corpus_guards.py` and `corpus_dcg.py` hold cases
taken from two guards' own test corpora; "asi-v0" is this repository's first corpus. The second corpus
(`corpus_new.py`: carriers, exfiltration, reverse shells, computed names, disk, account and archive
commands) uses the keys from "gtfobins" on; its sealed held-out part (`corpus_sealed.py`) names its own
sources, which the classifier was not written from.
"""

SOURCES: dict[str, str] = {
    "asi-v0": "this repository's first classifier corpus (tests/policy/danger_corpus.py, before the graded corpus)",
    "dcg-git": "https://github.com/Dicklesworthstone/destructive_command_guard/blob/main/crates/dcg-cli/src/packs/core/git.rs",
    "dcg-packs": "https://github.com/Dicklesworthstone/destructive_command_guard/tree/main/crates/dcg-cli/src/packs",
    "dcg-corpus": "https://github.com/Dicklesworthstone/destructive_command_guard/tree/main/tests/corpus",
    "dcg-readme": "https://github.com/Dicklesworthstone/destructive_command_guard/blob/main/README.md",
    "safety-net": "https://github.com/kenryu42/claude-code-safety-net/tree/main/tests",
    "safety-net-edge": "https://github.com/kenryu42/claude-code-safety-net/blob/main/tests/core/analyze/edge-cases.test.ts",
    "goose": "https://github.com/block-open-source/goose/blob/main/tests/utils/test_check_shell_command.py",
    "codex-safe": "https://github.com/openai/codex/blob/main/codex-rs/core/src/command_safety/is_safe_command.rs",
    "codex-win": "https://github.com/openai/codex/blob/main/codex-rs/core/src/command_safety/windows_safe_commands.rs",
    "sah-safe": "https://github.com/swissarmyhammer/swissarmyhammer/blob/main/builtin/validators/safe-commands.md",
    "git-guardrails": "https://github.com/simo97/claude-skills/blob/main/git-guardrails-claude-code/scripts/block-dangerous-git.sh",
    "gemini-acl": "https://github.com/google-gemini/gemini-cli/blob/main/docs/command-access-control.md",
    "gemini-shell": "https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/shell.md",
    "safe-skill": "https://github.com/gnuton/CardCraftStudio/blob/main/.agent/skills/command-safety/SKILL.md",
    "cc-10077": "https://github.com/anthropics/claude-code/issues/10077 (rm -rf from / deleted a home folder)",
    "cc-12637": "https://github.com/anthropics/claude-code/issues/12637 (rm -rf * next to a folder named ~)",
    "cc-93099": 'https://github.com/anthropics/claude-code/issues/93099 (rm -rf "$HOME" during test cleanup)',
    "cc-21217": "https://github.com/anthropics/claude-code/issues/21217 (rm -rf of a folder under ~)",
    "cc-10978": "https://github.com/anthropics/claude-code/issues/10978 (rm -rf of an absolute project path)",
    "cc-80830": "https://github.com/anthropics/claude-code/issues/80830 (rm -rf of a checkout before cloning)",
    "cc-34729": "https://github.com/anthropics/claude-code/issues/34729 (prisma migrate reset --force)",
    "cc-36183": "https://github.com/anthropics/claude-code/issues/36183 (prisma db push --force-reset)",
    "prisma-27948": "https://github.com/prisma/orm/pull/27948 (AI-agent checks for destructive migrate commands)",
    "prisma-29713": "https://github.com/prisma/orm/pull/29713 (db push --accept-data-loss guard)",
    "amazonq-wiper": "https://www.pillar.security/blog/analyzing-the-amazon-q-incident-using-the-sail-framework",
    "replit-db": "https://securie.ai/scenarios/ai-agent-deleted-production-database (Replit, PocketOS)",
    "pocketos": "https://infraveil.com/ai-agent-deleted-production-database",
    "aws-guardrails": "https://lillytechsystems.com/ai-school/ai-agent-aws-guardrails/introduction.html",
    "gemini-move": "https://3idata.com/blog/security-in-the-age-of-ai/ (Gemini CLI wildcard move incident)",
    "gtfobins": "https://github.com/GTFOBins/GTFOBins.github.io/tree/master/_gtfobins (shell, command, reverse-shell and upload functions)",
    "codex-dangerous": "https://github.com/openai/codex/blob/main/codex-rs/core/src/command_safety/is_dangerous_command.rs",
    "gemini-shell-utils": "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/utils/shell-utils.test.ts",
    "tldr-common": "https://github.com/tldr-pages/tldr/tree/main/pages/common (everyday examples, placeholders filled in)",
    "issue-26": "this repository's issue 26: the kinds of commands the classifier missed, spelled here (carriers, exfiltration, reverse shells, computed names, disk and system tools, archives)",
    "amazonq-docs": "https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/command-line-chat-security.html",
}
