from asi_agent.eval.verifying import stated

stated("apply_discount", seen="def apply_discount")
stated("pricing.py", seen="shop/pricing.py")
