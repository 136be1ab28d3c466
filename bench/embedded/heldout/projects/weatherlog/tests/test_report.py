from weatherlog.report import format_reading, summary


def test_format_celsius():
    assert format_reading({"station": "HOME", "temp_c": 12.34}) == "HOME: 12.3 C"


def test_format_fahrenheit():
    assert format_reading({"station": "ROOF", "temp_c": 10}, fahrenheit=True) == "ROOF: 50.0 F"


def test_summary():
    readings = [{"station": "HOME", "temp_c": 3.0}, {"station": "SHED", "temp_c": 7.5}]
    assert summary(readings) == "2 readings, min 3.0 C, max 7.5 C"
