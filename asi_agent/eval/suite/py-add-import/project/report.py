def dump(data):
    return json.dumps(data, indent=2)
