DEBUG = True
VERBOSE = False
