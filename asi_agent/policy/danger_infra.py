"""Rules for infrastructure and data: clusters, cloud accounts, infrastructure as code, databases.

Their targets are outside any folder (`remote:…`), so `yolo` refuses them too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext, always, split, subcommands, words
from asi_agent.policy.danger_paths import Finding, ask, remote

__all__ = ["INFRA_RULES", "destructive_sql"]

_CLOUD = remote("cloud resources")
_CLUSTER = remote("the cluster")
_DATABASE = remote("a database")
_DESTROY_VERBS = frozenset({"delete", "destroy", "rm", "rb", "remove", "purge", "terminate", "reset", "wipe"})
_VERB_PREFIX = re.compile(
    r"^(?:batch-)?(?:delete|terminate|remove|purge|deregister|destroy|drop|disable|revoke)-"
)
_SQL = re.compile(
    r"\b(?:drop\s+(?:database|schema|table|view|index|user|role|keyspace|collection|owned)\b"
    r"|truncate\b|delete\s+from\s+[\w.\"`\[\]]+\s*(?:;|$)|update\s+[\w.\"`]+\s+set\b"
    r"|alter\s+table\s+\S+\s+drop\b|dropdatabase\s*\(|\.drop\s*\(|deletemany\s*\(\s*\{\s*\}"
    r"|\.remove\s*\(\s*\{\s*\}|\bflushall\b|\bflushdb\b)",
    re.IGNORECASE,
)


def destructive_sql(text: str) -> str | None:
    """The first statement in `text` that drops, truncates or empties data, if any."""
    for statement in re.split(r";\s*", text):
        match = _SQL.search(statement + ";")
        if match and not (
            match.group(0).lower().startswith("update") and re.search(r"\bwhere\b", statement, re.I)
        ):
            return " ".join(statement.split())[:80]
    return None


def _cloud_verbs(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`aws ec2 terminate-instances`, `gcloud sql instances delete`, `az group delete`, `doctl … delete`."""
    for word in words(args)[:4]:
        if word in _DESTROY_VERBS or _VERB_PREFIX.match(word):
            return ask(f"{ctx.program} {word} deletes cloud resources", _CLOUD)
    if ctx.program == "aws" and words(args)[:2] == ["s3", "sync"] and "--delete" in args:
        return ask("aws s3 sync --delete deletes objects in the bucket", _CLOUD)
    return None


def _check_gsutil(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    if (verbs[:1] and verbs[0] in ("rm", "rb")) or (verbs[:1] == ["rsync"] and "-d" in args):
        return ask(f"gsutil {verbs[0]} deletes bucket contents", _CLOUD)
    return None


def _check_kubectl(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    verb = verbs[0] if verbs else ""
    if verb in ("delete", "drain", "uninstall") or (verb == "replace" and "--force" in args):
        return ask(f"{ctx.program} {verb} deletes cluster resources", _CLUSTER)
    if verb == "apply" and any(a.startswith("--prune") for a in args):
        return ask(f"{ctx.program} apply --prune deletes cluster resources", _CLUSTER)
    if verb == "exec" and "--" in args:
        found = ctx.script(" ".join(args[args.index("--") + 1 :]))
        return ask(f"inside a pod: {found.reason}", _CLUSTER) if found.level != "safe" else None
    return None


def _check_terraform(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    verb = verbs[0] if verbs else ""
    if verb == "destroy" or (verb == "apply" and "-destroy" in args):
        return ask(f"{ctx.program} destroy deletes the managed infrastructure", _CLOUD)
    if verbs[:2] in (["state", "rm"], ["workspace", "delete"]) or verb == "taint":
        return ask(f"{ctx.program} {' '.join(verbs[:2])} drops resources from the state", _CLOUD)
    if verb == "apply" and any(a.startswith("-replace") for a in args):
        return ask(f"{ctx.program} apply -replace destroys and recreates resources", _CLOUD)
    return None


def _check_sql_client(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`psql -c`, `mysql -e`, `sqlite3 db "…"`, `mongosh --eval`, `redis-cli FLUSHALL`, or SQL on input."""
    texts = [*ctx.stdin]
    for index, arg in enumerate(args):
        if arg in ("-c", "-e", "--command", "--execute", "--eval", "--query", "-q") and index + 1 < len(args):
            texts.append(args[index + 1])
        elif arg.startswith(("--command=", "--execute=", "--eval=", "--query=")):
            texts.append(arg.split("=", 1)[1])
    operands = split(args)[1]
    if ctx.program in ("sqlite3", "duckdb", "redis-cli"):
        texts.append(" ".join(operands))
    found = next((s for s in map(destructive_sql, texts) if s), None)
    if found:
        target = operands[0] if ctx.program in ("sqlite3", "duckdb") and operands else _DATABASE
        return ask(f"{ctx.program} runs `{found}`, which deletes data", target)
    return None


def _check_task_runner(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """Framework tasks that drop or reset the database: `rails db:drop`, `artisan migrate:fresh` …"""
    tasks = {
        "db:drop", "db:reset", "db:purge", "db:schema:load", "db:setup", "db:wipe", "migrate:fresh",
        "migrate:reset", "migrate:refresh", "ecto.drop", "ecto.reset", "db:migrate:reset", "schema:drop",
        "flush", "reset_db", "sqlflush", "db:rollback:all", "migrate:rollback",
    }  # fmt: skip
    found = next((a for a in words(args) if a in tasks), None)
    if found == "migrate:rollback" and "--all" not in args:
        return None
    return ask(f"{ctx.program} {found} deletes the database's data", _DATABASE) if found else None


def _check_prisma(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    if verbs[:2] == ["migrate", "reset"] or (
        verbs[:2] == ["db", "push"] and {"--force-reset", "--accept-data-loss"} & set(args)
    ):
        return ask(f"prisma {' '.join(verbs[:2])} deletes the database's data", _DATABASE)
    return None


_HOSTING = (
    ("apps destroy", "", "deletes an app"), ("apps:destroy", "", "deletes an app"),
    ("destroy", "", "deletes an app"), ("volumes destroy", "", "deletes a volume"),
    ("remove", "", "deletes a deployment"), ("rm", "", "deletes a deployment"),
    ("pg:reset", "", "empties the database"), ("addons:destroy", "", "deletes an add-on"),
    ("sites:delete", "", "deletes a site"), ("projects:delete", "", "deletes a project"),
    ("firestore:delete", "", "deletes documents"), ("database:remove", "", "deletes data"),
    ("down", "", "deletes the deployment"), ("delete", "", "deletes a resource"),
    ("volume delete", "", "deletes a volume"), ("db reset", "", "empties the database"),
    ("projects delete", "", "deletes a project"), ("stack rm", "", "deletes a stack"),
    ("state delete", "", "deletes state"), ("repo delete", "", "deletes a repository"),
    ("release delete", "", "deletes a release"), ("secret delete", "", "deletes a secret"),
)  # fmt: skip

INFRA_RULES: dict[str, Checker] = {
    **dict.fromkeys(
        ("aws", "gcloud", "az", "doctl", "linode-cli", "hcloud", "scw", "oci", "ibmcloud"), _cloud_verbs
    ),
    "gsutil": _check_gsutil,
    **dict.fromkeys(("kubectl", "oc", "k3s", "microk8s"), _check_kubectl),
    "helm": subcommands(
        *((verb, "", "deletes a release") for verb in ("uninstall", "delete", "del", "un")), target=_CLUSTER
    ),
    **dict.fromkeys(("terraform", "tofu", "terragrunt"), _check_terraform),
    "pulumi": subcommands(
        ("destroy", "", "deletes the stack's resources"), ("stack rm", "", "deletes a stack"), target=_CLOUD
    ),
    "cdk": subcommands(("destroy", "", "deletes the stacks"), target=_CLOUD),
    **dict.fromkeys(("serverless", "sls"), subcommands(("remove", "", "deletes the service"), target=_CLOUD)),
    "sam": subcommands(("delete", "", "deletes the stack"), target=_CLOUD),
    **dict.fromkeys(
        ("vercel", "netlify", "fly", "flyctl", "heroku", "railway", "supabase", "firebase", "gh", "glab"),
        subcommands(*_HOSTING, target=_CLOUD),
    ),
    **dict.fromkeys(("dropdb", "dropuser"), always("{program} deletes a database or its owner", _DATABASE)),
    "mysqladmin": lambda args, ctx: (
        ask("mysqladmin drop drops a database", _DATABASE) if "drop" in args else None
    ),
    **dict.fromkeys(
        (
            "psql",
            "mysql",
            "mariadb",
            "sqlite3",
            "duckdb",
            "mongosh",
            "mongo",
            "redis-cli",
            "cqlsh",
            "clickhouse-client",
            "clickhouse",
            "sqlcmd",
            "cockroach",
        ),
        _check_sql_client,
    ),
    **dict.fromkeys(
        ("rails", "rake", "artisan", "mix", "manage.py", "sequelize", "typeorm", "knex"), _check_task_runner
    ),
    "prisma": _check_prisma,
    "drizzle-kit": subcommands(("drop", "", "drops migrations"), target=_DATABASE),
    "alembic": lambda args, ctx: (
        ask("alembic downgrade base drops every table", _DATABASE)
        if "base" in args and "downgrade" in args
        else None
    ),
    "flyway": subcommands(("clean", "", "drops every object in the schema"), target=_DATABASE),
    "liquibase": subcommands(
        ("drop-all", "", "drops every object"), ("dropAll", "", "drops every object"), target=_DATABASE
    ),
    "dotnet": subcommands(("ef database drop", "", "drops the database"), target=_DATABASE),
}
