from recipebox.scaling import scale_quantity, scale_recipe


def test_double():
    assert scale_quantity(250, 2) == 500


def test_rounding():
    assert scale_quantity(1, 1 / 3) == 0.33


def test_scale_recipe():
    assert scale_recipe({"flour": 100, "eggs": 2}, servings=2, base_servings=4) == {
        "flour": 50,
        "eggs": 1,
    }
