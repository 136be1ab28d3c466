def fetch(url):
    # TODO: retry on timeout
    return url
