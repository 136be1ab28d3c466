import sys

from linkcheck.crawler import crawl
from linkcheck.report import render_text, write_json


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m linkcheck URL")
        return 2
    results = crawl(argv[0])
    write_json(results)
    print(render_text(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
