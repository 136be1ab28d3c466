TIMEOUT = 10


def get(url, timeout=TIMEOUT):
    return url, timeout
