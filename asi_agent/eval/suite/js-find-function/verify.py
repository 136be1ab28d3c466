from asi_agent.eval.verifying import ANSWER, check

check("lib/url.js" in ANSWER, "file not named")
