import argparse
import csv
import json
import sys

from birdtally import __version__, storage
from birdtally.tally import add_sighting, summarize, top_species


def build_parser():
    parser = argparse.ArgumentParser(prog="birdtally", description="Count the birds you see.")
    parser.add_argument("--version", action="version", version=f"birdtally {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    add = sub.add_parser("add", help="record a sighting")
    add.add_argument("species")
    add.add_argument("-n", "--count", type=int, default=1)
    add.add_argument("--place")

    summary = sub.add_parser("summary", help="show totals per species")
    summary.add_argument("--min-count", type=int, default=2)
    summary.add_argument("--top", type=int, default=0)

    export = sub.add_parser("export", help="dump all sightings")
    export.add_argument("--format", choices=["csv", "json"], default="csv")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    records = storage.load()

    if args.command == "add":
        add_sighting(records, args.species, args.count, args.place)
        storage.save(records)
        print(f"noted {args.count} x {args.species}")
    elif args.command == "summary":
        if args.top:
            for name in top_species(records, args.top):
                print(name)
        else:
            for name, total in sorted(summarize(records, args.min_count).items()):
                print(f"{name:20} {total}")
    elif args.command == "export":
        if args.format == "json":
            json.dump(records, sys.stdout, indent=2)
        else:
            writer = csv.DictWriter(sys.stdout, fieldnames=["day", "species", "count", "place"])
            writer.writeheader()
            writer.writerows(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
