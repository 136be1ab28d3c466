from asi_agent.eval.verifying import check, text

check("docstrings in English" in text(".asi/USER_PROMPT.md"), "prompt not updated")
