import argparse

from weatherlog import stats
from weatherlog.config import load_config

BANNER = "Hi from weatherlog!"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="weatherlog")
    parser.add_argument("readings", nargs="*", type=float, help="temperatures to summarise")
    parser.add_argument("--config", default="config.toml", help="path to the settings file")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    config = load_config(args.config)
    print(BANNER)
    print(f"station: {config['station']['name']}")
    if args.readings:
        print(f"average: {stats.mean(args.readings):.1f}")
        print(f"spread: {stats.spread(args.readings):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
