from weatherlog.stats import celsius_to_fahrenheit, gauge_area, spread


def test_spread():
    assert spread([3.0, 9.5, 4.0]) == 6.5


def test_freezing_point():
    assert celsius_to_fahrenheit(0) == 32


def test_boiling_point():
    assert celsius_to_fahrenheit(100) == 212


def test_gauge_area():
    assert abs(gauge_area(10) - 314.16) < 0.5
