from linkcheck.extract import extract_links, is_external


def format_report(text):
    links = extract_links(text)
    external = [url for url in links if is_external(url)]
    return f"{len(links)} links, {len(external)} external"
