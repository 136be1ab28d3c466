import json

from asi_agent.eval.verifying import check, text

data = json.loads(text("moss-tools.json"))
tool = next(t for t in data["tools"] if t["name"] == "word_count")
check(tool["run"]["command"] == ["python3", "plugins/wc.py"], "wrong command")
check(tool["parameters"]["required"] == ["path"], "path not required")
