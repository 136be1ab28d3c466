import pytest
from recipebox.scale import MAX_SERVINGS, scale_recipe


def test_scale_recipe_doubles():
    assert scale_recipe({"flour_g": 200, "eggs": 2}, 4, 8) == {"flour_g": 400, "eggs": 4}


def test_same_servings_is_unchanged():
    assert scale_recipe({"sugar_g": 150}, 4, 4) == {"sugar_g": 150}


def test_too_many_servings():
    with pytest.raises(ValueError):
        scale_recipe({"eggs": 1}, 2, MAX_SERVINGS + 1)
