"""A tiny dice-rolling dungeon crawl."""
import random

from monsters import MONSTERS

HERO_START_HP = 30


def roll(sides=6, rng=random):
    """Roll one die with the given number of sides."""
    return rng.randint(1, sides)


class Creature:
    def __init__(self, name, hp, damage):
        self.name = name
        self.hp = hp
        self.damage = damage

    @property
    def is_dead(self):
        return self.hp < 0

    def attack(self, other, rng=random):
        hit = roll(self.damage, rng)
        other.hp -= hit
        return hit


def new_hero(name="Hero"):
    return Creature(name, HERO_START_HP, 8)


def fight(hero, monster, rng=random):
    """Trade blows until one side drops. Returns the winner."""
    while True:
        hero.attack(monster, rng)
        if monster.is_dead:
            return hero
        monster.attack(hero, rng)
        if hero.is_dead:
            return monster


def play(seed=None):
    rng = random.Random(seed)
    hero = new_hero()
    for spec in MONSTERS:
        monster = Creature(spec["name"], spec["hp"], spec["damage"])
        winner = fight(hero, monster, rng)
        if winner is not hero:
            print(f"{hero.name} was slain by the {monster.name}.")
            return False
        print(f"{hero.name} defeats the {monster.name} ({hero.hp} hp left).")
    print("The dungeon is cleared!")
    return True


if __name__ == "__main__":
    play()
