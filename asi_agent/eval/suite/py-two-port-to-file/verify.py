from asi_agent.eval.verifying import check, text

check(text("PORT.txt").strip() == "8088", "PORT.txt does not hold 8088")
