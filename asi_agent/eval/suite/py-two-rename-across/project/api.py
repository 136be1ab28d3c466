def fetch(url):
    return 'data from ' + url
