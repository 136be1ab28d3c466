import json

from asi_agent.eval.verifying import check, text

scripts = json.loads(text("package.json"))["scripts"]
check(scripts.get("lint") == "eslint .", "no lint script")
check(scripts.get("test") == "node --test", "test script changed")
