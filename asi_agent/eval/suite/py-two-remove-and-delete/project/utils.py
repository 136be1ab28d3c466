def helper():
    return 1


def old_helper():
    return 0
