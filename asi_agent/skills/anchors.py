"""Requests that need no skill: the router's background class.

A query closer to one of these than to any skill (by `RouterConfig.anchor_margin`) is routed to "none".
They describe kinds of everyday and general requests a coding assistant also receives, in English and
Chinese; they were written for the routing benchmark's development queries, after its held-out file was
frozen (by the same author: see docs/benchmarks.md).
"""

from __future__ import annotations

__all__ = ["NONE_ANCHORS"]

NONE_ANCHORS: tuple[str, ...] = (
    "small talk, greetings, jokes and chit-chat",
    "a general knowledge or trivia question about history, geography, science or famous people",
    "the weather forecast, temperature or rain for a city",
    "cooking, recipes, food and drinks",
    "travel planning, tickets, hotels, restaurants and reservations",
    "health, medicine, fitness, diet and exercise",
    "recommend a book, film, music, game or product to buy",
    "personal life advice, relationships, pets, plants, home and family",
    "write a personal letter, greeting, poem or wish for a friend or relative",
    "translate a sentence into another language",
    "reminders, alarms, timers, calendar and the current time or date",
    "unit conversion, exchange rates, prices and simple arithmetic",
    "sports results, news and celebrities",
    "explain a basic programming concept or language feature",
    "闲聊、问候、讲笑话",
    "常识问题：历史、地理、科学、名人",
    "天气预报、气温、下雨",
    "做饭、菜谱、美食和饮料",
    "旅行安排、车票机票、酒店、餐厅预订",
    "健康、看病吃药、健身、减肥",
    "推荐书、电影、音乐、游戏或要买的东西",
    "生活建议、感情、宠物、养花、家庭",
    "写给亲友的信、祝福语、诗",
    "把一句话翻译成另一种语言",
    "提醒、闹钟、日程、现在几点",
    "单位换算、汇率、价格、简单计算",
    "体育比赛、新闻、明星",
    "解释一个基础的编程概念",
)
"""One line per kind of request that no skill serves."""
