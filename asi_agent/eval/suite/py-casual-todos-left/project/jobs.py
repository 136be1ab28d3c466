def run():
    # TODO: add retries
    pass
