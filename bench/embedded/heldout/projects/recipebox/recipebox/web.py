"""Very small read-only web view of the recipe folder."""

import json
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path


def serve():
    settings = json.loads(Path("settings.json").read_text())
    port = settings["port"]
    print(f"serving on http://127.0.0.1:{port}/")
    HTTPServer(("127.0.0.1", port), SimpleHTTPRequestHandler).serve_forever()


if __name__ == "__main__":
    serve()
