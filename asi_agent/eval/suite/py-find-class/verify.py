from asi_agent.eval.verifying import check, number, shown, stated

# The class statement is line 5; its decorator, where find_code_location places it, line 4.
stated("billing/models.py", seen="class Invoice")
check(number(5) or number(4), "line 5 (or the decorator's line 4) not named")
check(
    shown("billing/models.py:4") or shown("5| class Invoice"),
    "no tool result of this run showed where Invoice is defined",
)
