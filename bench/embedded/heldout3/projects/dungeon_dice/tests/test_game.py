import random

from game import Creature, fight, new_hero, roll
from monsters import by_name


def test_roll_stays_in_range():
    rng = random.Random(1)
    for _ in range(200):
        assert 1 <= roll(6, rng) <= 6


def test_new_hero_starts_healthy():
    hero = new_hero()
    assert hero.hp > 0
    assert not hero.is_dead


def test_creature_dies_at_zero_hp():
    rat = Creature("rat", 3, 4)
    rat.hp -= 3
    assert rat.is_dead


def test_fight_has_a_winner():
    hero = new_hero()
    goblin = by_name("goblin")
    monster = Creature(goblin["name"], goblin["hp"], goblin["damage"])
    winner = fight(hero, monster, random.Random(7))
    assert winner in (hero, monster)
    loser = monster if winner is hero else hero
    assert loser.is_dead
