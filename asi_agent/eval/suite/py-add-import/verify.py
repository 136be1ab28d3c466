import json, sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
import report
check(report.dump({"a": 1}) == json.dumps({"a": 1}, indent=2), "dump fails")
check(text("report.py").startswith("import json"), "import not first")
