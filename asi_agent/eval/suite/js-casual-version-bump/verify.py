import json

from asi_agent.eval.verifying import check, text

data = json.loads(text("package.json"))
check(data["version"] == "2.0.0", "version not bumped")
check(data["name"] == "tiny-lib", "name changed")
