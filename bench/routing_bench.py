"""Benchmark: tool routing with 100+ plugin tools — schema tokens per turn and recall of the needed tool.

The registry holds the built-in tools plus synthetic plugin tools of many domains (issue trackers,
Kubernetes, databases, chat, cloud, images, PDF, CI, mail, calendar, monitoring, payments, ...), built
programmatically from hand-written actions with varied names, descriptions and parameters. Each of the
labelled requests names the one tool it needs; every second request carries the previous request as
older context, so the weighting towards the latest message is exercised too.

Per request it measures the tool schemas sent with routing off (all implemented tools) and on
(`asi_agent.routing.routed_schemas`), counted as tokens ≈ len(JSON text) / 4 (no tokenizer is
installed; `tiktoken` is used when importable), and whether the needed tool was among those sent
(recall@K). Target: ≥ 60 % fewer schema tokens at ≥ 95 % recall. Prints a markdown table and writes
`bench/results/routing.json`.

    python bench/routing_bench.py [--top-k N] [--threshold N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asi_agent.messages import Message
from asi_agent.routing import RoutingConfig, routed_schemas
from asi_agent.tools.base import PluginArgs, ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import ToolRegistry, default_registry

RESULTS = Path(__file__).parent / "results" / "routing.json"
TOKEN_TARGET, RECALL_TARGET = 0.60, 0.95

# One plugin tool per entry: `name | description | param:type[:description]; ...`, grouped by domain;
# an indented line continues the entry above.
TOOLS = """
# Jira
jira_create_issue | Create a new Jira issue (bug, story or task) in a project | projectKey:string:Project
    key such as ABC; summary:string:One-line title; issueType:string:Bug, Story or Task
jira_get_issue | Fetch one Jira issue with its status, assignee and description | issueKey:string:Issue key
    such as ABC-123
jira_search_issues | Search Jira issues with a JQL query | jql:string:JQL query text
jira_transition_issue | Move a Jira issue to another workflow status (e.g. In Progress, Done) |
    issueKey:string:Issue key; status:string:Target status
jira_add_comment | Add a comment to a Jira issue | issueKey:string:Issue key; body:string:Comment text
jira_assign_issue | Assign a Jira issue to a user | issueKey:string:Issue key; assignee:string:User name
jira_list_sprints | List the sprints of a Jira board, active first | boardId:number:Board id
jira_log_work | Log time spent on a Jira issue (worklog) | issueKey:string:Issue key; timeSpent:string:e.g.
    2h 30m
# Kubernetes
k8s_list_pods | List the pods of a Kubernetes namespace with their phase and restarts |
    namespace:string:Namespace
k8s_pod_logs | Read the container logs of a Kubernetes pod | pod:string:Pod name; tailLines:number:Last
    lines to return
k8s_scale_deployment | Scale a Kubernetes deployment to a number of replicas | deployment:string:Deployment
    name; replicas:number:Desired replicas
k8s_rollout_restart | Restart a deployment with a rolling rollout | deployment:string:Deployment name
k8s_describe_node | Describe a cluster node: capacity, allocatable CPU and memory, conditions |
    node:string:Node name
k8s_apply_manifest | Apply a YAML manifest to the cluster (kubectl apply) | manifestPath:string:Path of the
    YAML file
k8s_delete_namespace | Delete a Kubernetes namespace and everything in it | namespace:string:Namespace
k8s_port_forward | Forward a local port to a pod or service port | target:string:pod/name or svc/name;
    ports:string:local:remote
k8s_get_events | List recent cluster events (warnings such as OOMKilled, BackOff) |
    namespace:string:Namespace
# PostgreSQL
pg_run_query | Run a read-only SQL query on the PostgreSQL database and return rows | sql:string:SQL SELECT
    statement
pg_list_tables | List the tables of a PostgreSQL schema with row estimates | schema:string:Schema name
pg_describe_table | Show the columns, types, indexes and constraints of a table | table:string:Table name
pg_explain_query | Show the execution plan (EXPLAIN ANALYZE) of a SQL query | sql:string:SQL statement
pg_create_backup | Dump the database to a backup file (pg_dump) | target:string:Output file
pg_restore_backup | Restore the database from a pg_dump backup file | source:string:Backup file
pg_slow_queries | List the slowest statements from pg_stat_statements | limit:number:Rows
pg_run_migration | Apply pending schema migrations to the database | dryRun:boolean:Only print
# Slack
slack_send_message | Post a message to a Slack channel | channel:string:Channel such as #deploys;
    text:string:Message text
slack_list_channels | List the Slack channels of the workspace | includeArchived:boolean
slack_search_messages | Search Slack messages across channels | query:string:Search words
slack_upload_file | Upload a file to a Slack channel | channel:string:Channel; path:string:File to upload
slack_set_status | Set your Slack status text and emoji | text:string:Status; emoji:string:e.g. :palm_tree:
slack_create_channel | Create a new Slack channel | name:string:Channel name
slack_add_reaction | Add an emoji reaction to a Slack message | timestamp:string:Message ts
# AWS
aws_list_buckets | List the S3 buckets of the AWS account
aws_s3_upload | Upload a local file to an S3 bucket | bucket:string:Bucket; key:string:Object key
aws_describe_instances | Describe EC2 instances: state, type, public IP | region:string
aws_start_instance | Start a stopped EC2 instance | instanceId:string:i-...
aws_stop_instance | Stop a running EC2 instance | instanceId:string:i-...
aws_cost_report | Show the AWS bill: cost per service for a month (Cost Explorer) | month:string:YYYY-MM
aws_list_lambdas | List the Lambda functions with runtime and memory
aws_invoke_lambda | Invoke a Lambda function with a JSON payload | function:string:Name;
    payload:object:Event
aws_cloudwatch_logs | Fetch log events of a CloudWatch log group | logGroup:string
# image
img_resize | Resize an image to a width and height | path:string:Image file; width:number; height:number
img_crop | Crop an image to a rectangle | path:string:Image file; box:array:x,y,w,h
img_convert_format | Convert an image between PNG, JPEG, WebP and GIF | path:string:Image file;
    format:string:Target format
img_compress | Compress an image to a smaller file size with a quality setting | path:string:Image file;
    quality:number:1-100
img_exif | Read the EXIF metadata of a photo (camera, GPS position, date taken) | path:string:Image file
img_thumbnail | Generate a thumbnail of an image | path:string:Image file
img_remove_background | Remove the background of a picture, keeping the subject | path:string:Image file
img_ocr | Recognise the text in an image or screenshot (OCR) | path:string:Image file; language:string
# PDF
pdf_merge | Merge several PDF files into one document | paths:array:PDF files in order
pdf_split | Split a PDF into separate files by page ranges | path:string:PDF file; ranges:string:e.g.
    1-3,4-9
pdf_extract_text | Extract the text of a PDF document | path:string:PDF file
pdf_to_images | Render the pages of a PDF as PNG images | path:string:PDF file; dpi:number
pdf_fill_form | Fill the form fields of a PDF form | path:string:PDF; fields:object
pdf_watermark | Stamp a watermark text on every page of a PDF | path:string:PDF; text:string
pdf_extract_tables | Extract the tables of a PDF as CSV | path:string:PDF file
# GitHub
gh_create_pr | Open a GitHub pull request from a branch | head:string:Branch; title:string
gh_list_prs | List open GitHub pull requests with review state | author:string
gh_merge_pr | Merge a GitHub pull request (squash, merge or rebase) | number:number:PR
gh_create_release | Create a GitHub release with notes for a tag | tag:string:v1.2.3
gh_workflow_runs | List GitHub Actions workflow runs and their conclusion | branch:string
gh_rerun_workflow | Re-run a failed GitHub Actions workflow run | runId:number
gh_review_comments | List the review comments of a pull request | number:number:PR
# email
mail_send | Send an email to recipients with subject and body | to:array; subject:string
mail_search_inbox | Search the email inbox by sender, subject or words | query:string
mail_create_draft | Save an email as a draft without sending it | subject:string
mail_list_labels | List the mailbox labels/folders
# calendar
cal_create_event | Schedule a calendar event or meeting with attendees | title:string; start:string:ISO
    time; attendees:array
cal_list_events | List calendar events in a date range (agenda) | from:string; to:string
cal_find_free_slot | Find a free time slot common to several people's calendars | people:array;
    durationMinutes:number
cal_cancel_event | Cancel a calendar event and notify attendees | eventId:string
# Docker
docker_build | Build a Docker image from a Dockerfile | context:string; tag:string
docker_ps | List running Docker containers | all:boolean:Include stopped
docker_logs | Show the logs of a Docker container | container:string
docker_prune | Remove unused Docker images, containers and volumes to free disk space
docker_push | Push a Docker image to a registry | image:string
docker_compose_up | Start the services of a docker-compose file | file:string
# monitoring
mon_query_metrics | Run a PromQL query on Prometheus metrics (CPU, latency, error rate) | promql:string
mon_list_alerts | List firing alerts from Alertmanager | severity:string
mon_silence_alert | Silence an alert for a duration | alertName:string; duration:string
mon_create_dashboard | Create a Grafana dashboard with panels | title:string
mon_uptime | Report the uptime / availability of a service (SLO) | service:string
# Sentry
sentry_list_errors | List the unresolved Sentry errors of a project by frequency | project:string
sentry_stacktrace | Show the stack trace of a Sentry error event | eventId:string
sentry_resolve_error | Mark a Sentry error as resolved | issueId:string
# Confluence
wiki_create_page | Create a Confluence wiki page in a space | space:string; title:string
wiki_search_pages | Search Confluence wiki pages (documentation) | query:string
wiki_update_page | Update the content of a Confluence page | pageId:string
# Stripe
stripe_create_invoice | Create a Stripe invoice for a customer | customer:string; amount:number
stripe_refund | Refund a Stripe payment (charge) | paymentId:string
stripe_list_customers | List Stripe customers with their subscription plan | email:string
stripe_subscription_cancel | Cancel a customer's Stripe subscription | subscriptionId:string
# Redis
redis_get | Read the value of a Redis key | key:string
redis_set | Write a Redis key with an optional expiry (TTL) | key:string; value:string
redis_flush_cache | Delete all keys of the Redis cache database
redis_scan_keys | List Redis keys matching a pattern | pattern:string
# Terraform
tf_plan | Show the Terraform plan: infrastructure changes before applying | dir:string
tf_apply | Apply the Terraform configuration to the infrastructure | dir:string
tf_state_list | List the resources in the Terraform state
tf_import | Import an existing cloud resource into the Terraform state | address:string
# npm
npm_audit | Audit the npm dependencies for known security vulnerabilities
npm_outdated | List the npm packages that have newer versions
npm_publish | Publish the package to the npm registry | tag:string
# translation
i18n_translate | Translate a text into another language | text:string; target:string:Language code
i18n_detect_language | Detect the language of a text | text:string
i18n_missing_keys | List the translation keys missing in a locale file | locale:string
# spreadsheet
sheet_read | Read rows of a spreadsheet (Google Sheets / Excel) range | range:string:A1:D20
sheet_append_rows | Append rows to a spreadsheet | rows:array
sheet_csv_to_json | Convert a CSV file to JSON records | path:string
sheet_pivot | Build a pivot table (group by and sum) of a spreadsheet | groupBy:string
# 中文
cn_dingtalk_notify | 发送钉钉群消息通知 | group:string:群名称; text:string:消息内容
cn_invoice_ocr | 识别增值税发票图片中的发票号码、金额和日期 | path:string:发票图片
cn_weather | 查询城市的天气预报 | city:string:城市
"""


# (request, needed tool)
REQUESTS: list[tuple[str, str]] = [
    ("Open a bug in project PAY saying the checkout button does nothing", "jira_create_issue"),
    ("What's the status of ticket PAY-431 and who is working on it?", "jira_get_issue"),
    ("Find all Jira bugs assigned to me that are still open (JQL)", "jira_search_issues"),
    ("Move PAY-431 to Done", "jira_transition_issue"),
    ("Book 3 hours of work on PAY-431 in the worklog", "jira_log_work"),
    ("Which sprint is active on board 12?", "jira_list_sprints"),
    ("Show me the logs of the api-7f9c pod, last 200 lines", "k8s_pod_logs"),
    ("Scale the checkout deployment to 5 replicas", "k8s_scale_deployment"),
    ("Restart the payments deployment so it picks up the new config", "k8s_rollout_restart"),
    ("Which pods in namespace staging keep restarting?", "k8s_list_pods"),
    ("Why was my container OOMKilled? check the cluster warning events", "k8s_get_events"),
    ("How much memory can node worker-3 still allocate?", "k8s_describe_node"),
    ("kubectl apply the file deploy/ingress.yaml", "k8s_apply_manifest"),
    ("Count the users who signed up last week with a SQL query", "pg_run_query"),
    ("What columns and indexes does the orders table have?", "pg_describe_table"),
    ("Why is this SELECT slow? show me its execution plan", "pg_explain_query"),
    ("Make a pg_dump backup of the database before the release", "pg_create_backup"),
    ("Which statements are the slowest in pg_stat_statements?", "pg_slow_queries"),
    ("Apply the pending schema migrations", "pg_run_migration"),
    ("Tell #deploys on Slack that version 2.3 is live", "slack_send_message"),
    ("Search Slack for what Anna said about the outage", "slack_search_messages"),
    ("Set my Slack status to on holiday with a palm tree", "slack_set_status"),
    ("Create a Slack channel for the incident", "slack_create_channel"),
    ("Share report.pdf in the #finance Slack channel", "slack_upload_file"),
    ("Upload build.zip to the artifacts S3 bucket", "aws_s3_upload"),
    ("How much did we spend on AWS in March, per service?", "aws_cost_report"),
    ("Which EC2 instances are running in eu-west-1 and what are their IPs?", "aws_describe_instances"),
    ("Stop the EC2 instance i-0abc123 for the weekend", "aws_stop_instance"),
    ("Invoke the resize-thumbnails Lambda with this event payload", "aws_invoke_lambda"),
    ("Fetch the CloudWatch log events of /aws/lambda/billing", "aws_cloudwatch_logs"),
    ("Make logo.png 200 by 200 pixels", "img_resize"),
    ("Turn all these PNG screenshots into WebP", "img_convert_format"),
    ("Where and when was photo IMG_2231.jpg taken? read its EXIF data", "img_exif"),
    ("Cut out the background of product.jpg", "img_remove_background"),
    ("Read the text in this screenshot of an error dialog (OCR)", "img_ocr"),
    ("Shrink hero.jpg, it's too heavy for the landing page — lower the quality", "img_compress"),
    ("Combine chapter1.pdf, chapter2.pdf and chapter3.pdf into a single PDF", "pdf_merge"),
    ("Get the text out of contract.pdf", "pdf_extract_text"),
    ("Put a DRAFT watermark on every page of the proposal PDF", "pdf_watermark"),
    ("Pull the tables from the annual report PDF as CSV", "pdf_extract_tables"),
    ("Split the scanned PDF into pages 1-3 and 4-10", "pdf_split"),
    ("Open a pull request from branch fix/login titled Fix login redirect", "gh_create_pr"),
    ("Squash-merge pull request 482", "gh_merge_pr"),
    ("Did the GitHub Actions workflow on main pass?", "gh_workflow_runs"),
    ("Re-run the failed CI run 99123", "gh_rerun_workflow"),
    ("Publish a GitHub release v2.4.0 with release notes", "gh_create_release"),
    ("Email the weekly report to bob@example.com with subject Weekly", "mail_send"),
    ("Find the email from the accountant about VAT in my inbox", "mail_search_inbox"),
    ("Schedule a meeting with Anna and Tom tomorrow at 10 about the roadmap", "cal_create_event"),
    ("When are Anna, Tom and I all free for 30 minutes this week?", "cal_find_free_slot"),
    ("What's on my calendar agenda for Monday?", "cal_list_events"),
    ("Build the Docker image from the Dockerfile and tag it api:dev", "docker_build"),
    ("My disk is full of old Docker images, clean them up", "docker_prune"),
    ("Bring up the services in docker-compose.yml", "docker_compose_up"),
    ("What is the p99 latency of the API over the last hour? query Prometheus", "mon_query_metrics"),
    ("Which alerts are firing right now?", "mon_list_alerts"),
    ("Silence the DiskFull alert for 2 hours", "mon_silence_alert"),
    ("What are the most frequent unresolved errors in Sentry for the web project?", "sentry_list_errors"),
    ("Show the stack trace of Sentry event 8c1f", "sentry_stacktrace"),
    ("Search the Confluence documentation for the onboarding guide", "wiki_search_pages"),
    ("Refund payment pi_3Nx for the customer", "stripe_refund"),
    ("Create an invoice of 120 EUR for customer cus_42", "stripe_create_invoice"),
    ("Cancel the subscription of cus_42", "stripe_subscription_cancel"),
    ("Flush the Redis cache", "redis_flush_cache"),
    ("What value does Redis hold for session:abc?", "redis_get"),
    ("What would terraform change if I applied now? show the plan", "tf_plan"),
    ("Are there vulnerable npm dependencies? run an audit", "npm_audit"),
    ("Which npm packages are outdated?", "npm_outdated"),
    ("Translate the README intro into German", "i18n_translate"),
    ("Which translation keys are missing in the fr locale?", "i18n_missing_keys"),
    ("Convert users.csv to JSON", "sheet_csv_to_json"),
    ("Sum the sales per region in the spreadsheet (pivot)", "sheet_pivot"),
    ("在钉钉群里通知大家今晚发布", "cn_dingtalk_notify"),
    ("帮我识别这张发票的金额和日期", "cn_invoice_ocr"),
    ("查询一下北京明天的天气", "cn_weather"),
]


def synthetic_specs() -> list[ToolSpec]:
    """The plugin tools of `TOOLS` with JSON-Schema parameters, as a manifest gives (first one required)."""
    specs: list[ToolSpec] = []
    for line in re.sub(r"\n\s+", " ", TOOLS.strip()).splitlines():
        if line.startswith("#"):
            continue
        name, description, *rest = (part.strip() for part in line.split(" | "))
        params = [item.split(":", 2) for item in rest[0].split("; ")] if rest else []
        properties = {p[0]: {"type": p[1], **({"description": p[2]} if len(p) > 2 else {})} for p in params}
        schema = {"type": "object", "properties": properties, "required": [p[0] for p in params[:1]]}
        specs.append(
            ToolSpec(
                name=name,
                args=PluginArgs,
                run=_noop,
                risk="execute",
                source="moss-tools.json",
                description=description,
                parameters=schema,
            )
        )
    return specs


async def _noop(args: ToolArgs, ctx: ToolContext) -> str:
    return ""


def token_counter() -> tuple[str, Callable[[str], int]]:
    """tiktoken's cl100k_base when installed, else len(text) / 4."""
    try:
        import tiktoken  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return "len(json)/4", lambda text: round(len(text) / 4)
    encoding = tiktoken.get_encoding("cl100k_base")
    return "tiktoken cl100k_base", lambda text: len(encoding.encode(text))


def conversation(index: int) -> list[Message]:
    """The request, with the previous request and a reply as older context for every second one."""
    request = REQUESTS[index][0]
    if index % 2 and index > 0:
        earlier = REQUESTS[index - 1][0]
        return [Message("user", earlier), Message("assistant", "Done."), Message("user", request)]
    return [Message("user", request)]


async def measure(top_k: int, threshold: int) -> dict[str, Any]:
    registry = ToolRegistry([*default_registry().specs(), *synthetic_specs()])
    method, count = token_counter()
    config = RoutingConfig(threshold=threshold, top_k=top_k)
    full = count(json.dumps(registry.schemas(), ensure_ascii=False))
    routed_tokens: list[int] = []
    misses: list[str] = []
    started = time.perf_counter()
    for index, (request, needed) in enumerate(REQUESTS):
        schemas = await routed_schemas(registry, conversation(index), locale="zh", config=config)
        routed_tokens.append(count(json.dumps(schemas, ensure_ascii=False)))
        if needed not in {s["function"]["name"] for s in schemas}:
            misses.append(f"{needed} ← {request}")
    elapsed = (time.perf_counter() - started) / len(REQUESTS)
    mean_routed = sum(routed_tokens) / len(routed_tokens)
    return {
        "plugin_tools": len(synthetic_specs()),
        "tools_total": len(registry),
        "requests": len(REQUESTS),
        "top_k": top_k,
        "threshold": threshold,
        "token_count_method": method,
        "schema_tokens_off": full,
        "schema_tokens_on_mean": round(mean_routed),
        "token_reduction": round(1 - mean_routed / full, 3),
        "recall_at_k": round(1 - len(misses) / len(REQUESTS), 3),
        "routing_ms_per_turn": round(elapsed * 1000, 2),
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top-k", type=int, default=8)
    parser.add_argument("--threshold", type=int, default=40)
    options = parser.parse_args()
    result = asyncio.run(measure(options.top_k, options.threshold))
    ok = result["token_reduction"] >= TOKEN_TARGET and result["recall_at_k"] >= RECALL_TARGET
    print(
        f"| tools | requests | schema tokens off | on (mean) | reduction "
        f"| recall@{result['top_k']} | ms/turn |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {result['tools_total']} ({result['plugin_tools']} plugins) | {result['requests']} | "
        f"{result['schema_tokens_off']} | {result['schema_tokens_on_mean']} | "
        f"{result['token_reduction']:.1%} | {result['recall_at_k']:.1%} | {result['routing_ms_per_turn']} |"
    )
    print(
        f"\ntokens counted as {result['token_count_method']}; target ≥ 60 % fewer at ≥ 95 % recall: "
        f"{'met' if ok else 'NOT met'}"
    )
    for miss in result["misses"]:
        print(f"missed: {miss}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
