from asi_agent.eval.verifying import check, number, shown

check(number(2), "the answer does not say 2")
check(shown("TODO: add retries") and shown("TODO: paginate"), "the TODOs were not found by a tool of this run")
