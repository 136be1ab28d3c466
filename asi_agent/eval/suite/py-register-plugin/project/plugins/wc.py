import json, sys
args = json.load(sys.stdin)
print(len(open(args['path']).read().split()))
