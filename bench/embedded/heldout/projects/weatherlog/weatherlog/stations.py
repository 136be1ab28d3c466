"""The weather stations we collect readings from."""

STATIONS = [
    {"id": "HOME", "name": "Back garden", "lat": 52.370, "lon": 4.890},
    {"id": "ROOF", "name": "Roof mast", "lat": 52.371, "lon": 4.891},
    {"id": "SHED", "name": "Allotment shed", "lat": 52.355, "lon": 4.902},
    {"id": "LAKE", "name": "Sailing club", "lat": 52.412, "lon": 4.950},
    {"id": "HILL", "name": "Hilltop (Jan's)", "lat": 51.980, "lon": 5.910},
]


def find_station(station_id):
    """Return the station with this id, or None."""
    for station in STATIONS:
        if station["id"] == station_id:
            return station
    return None
