def render():
    # TODO: paginate
    return ''
