from collections import Counter
from datetime import date


def add_sighting(records, species, count=1, place=None):
    if count < 1:
        raise ValueError("count must be at least 1")
    if count > 999:
        raise ValueError("that is a very large flock, please double-check")
    records.append({
        "species": species.strip().lower(),
        "count": count,
        "place": place,
        "day": date.today().isoformat(),
    })
    return records


def summarize(records, min_count=1):
    totals = Counter()
    for rec in records:
        totals[rec["species"]] += rec["count"]
    return {name: n for name, n in totals.items() if n >= min_count}


def top_species(records, n=5):
    totals = summarize(records)
    return sorted(totals, key=totals.get, reverse=True)[:n]
