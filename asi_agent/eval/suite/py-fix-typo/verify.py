from asi_agent.eval.verifying import check, text

check("Hello, {name}!" in text("greet.py"), "typo not fixed")
check("Helo," not in text("greet.py"), "typo still there")
