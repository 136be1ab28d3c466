from asi_agent.eval.verifying import check, shown, stated

stated("lib/url.js")
check(shown("function parseQuery"), "no tool result of this run showed parseQuery's definition")
