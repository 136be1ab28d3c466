from weatherlog.convert import c_to_f, f_to_c, kmh_to_ms


def test_freezing_point():
    assert c_to_f(0) == 32


def test_round_trip():
    assert abs(f_to_c(c_to_f(21.5)) - 21.5) < 1e-9


def test_wind_speed():
    assert kmh_to_ms(36) == 10
