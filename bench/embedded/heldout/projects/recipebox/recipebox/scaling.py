"""Scaling ingredient quantities up or down."""

ROUND_DIGITS = 2


def scale_quantity(quantity, factor):
    """Return quantity multiplied by factor, rounded to ROUND_DIGITS places."""
    return round(quantity * factor, ROUND_DIGITS)


def scale_recipe(ingredients, servings, base_servings):
    """Scale every ingredient of a recipe written for base_servings."""
    factor = servings / base_servings
    return {name: scale_quantity(qty, factor) for name, qty in ingredients.items()}
