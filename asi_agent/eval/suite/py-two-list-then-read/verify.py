from asi_agent.eval.verifying import check, number, shown

check(number(97), "the answer does not say 97")
check(shown("97", tool="read_file"), "numbers.txt was not read in this run")
