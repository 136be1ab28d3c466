OLD = True
