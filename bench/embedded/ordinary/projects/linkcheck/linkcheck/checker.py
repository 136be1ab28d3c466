import configparser
import urllib.request


def load_settings(path="linkcheck.ini"):
    parser = configparser.ConfigParser()
    parser.read(path)
    return parser["check"]


def check_url(url, settings):
    request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": settings["user_agent"]})
    with urllib.request.urlopen(request, timeout=settings.getint("timeout")) as response:
        return response.status == 200
