def dump(data):
    return json.dumps(data)


if __name__ == "__main__":
    print(dump({"a": 1}))
