"""Requests that need no skill: the router's background class.

The router weighs how far a query's nearest skill passage stands above its nearest anchor (the `lead` of
`asi_agent.skills.decision`): a query nearer to these than to any skill is routed to "none" unless its
best skill is close enough on its own. They describe kinds of everyday and general requests a coding
assistant also receives, in English and Chinese; they were written for the routing benchmark's development
queries, after its held-out file was frozen (by the same author: see docs/benchmarks.md); the second group
(household, studies, money, why questions, codes, hobbies) after the first two held-out rounds had been
scored, before the third. The third group is the work a coding agent does itself without a skill (concept
questions in any language, command and tool how-tos, small code edits, basic git, calling services in
general, chit-chat), written after the fourth round had been scored, before the fifth was opened, in general
words of the author's own (none is taken from a query set). The fourth group, in Chinese only, names
general requests of the kinds round 8 still routed (a type annotation, a docstring, a trivial unit test, a
phrase to translate, git basics, two commands compared, a one-line query, an error message explained),
written after round 8 had been scored, before round 9 was opened, again in general words; their English
counterparts were tried too and kept out, since they did not help on every set left out.
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
    "household chores, cleaning, laundry, stains and repairs at home",
    "learning a spoken language, studying for exams, school homework",
    "personal money: loans, mortgages, interest rates, taxes owed, savings",
    "why questions about nature, the sky, animals, space and the human body",
    "what an error code, HTTP status or acronym means",
    "hobbies, crafts, sports and games: how to play or get better",
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
    "家务、打扫、洗衣、去污渍、修理家里的东西",
    "学外语、口语、考试复习、孩子的作业",
    "个人理财：贷款、房贷利率、存钱、个税",
    "关于自然、天空、动物、宇宙和人体的为什么问题",
    "兴趣爱好、手工、运动和游戏怎么玩",
    "what is the difference between two data types or keywords in a programming language",
    "explain how a language feature works: closures, generators, decorators, pointers, lifetimes, "
    "async/await",
    "a computer science concept explained: algorithms, data structures, big-O complexity, recursion",
    "how a runtime or interpreter works inside: garbage collection, the event loop, threads and locks",
    "a distributed systems or networking concept explained: consensus, TCP, DNS, caching, load balancing",
    "what a design pattern or programming paradigm means, with a short example",
    "write a small function or snippet: reverse a string, parse a date, sort a list, read a file",
    "fix a syntax error or a typo in a few lines of code",
    "rename a variable, add a comment or reformat a short piece of code",
    "convert this code from one programming language to another",
    "a regular expression that matches some text",
    "explain what this error message or stack trace means",
    "how do I use a command-line tool: flags, options and an example command",
    "a shell one-liner: find files, count lines, replace text, list processes",
    "editor and IDE how-to: keyboard shortcuts, settings, extensions, plugins",
    "install a package or library with a package manager and fix its version conflict",
    "set up a language toolchain or virtual environment on my computer",
    "container basics: build an image, run a container, see its logs",
    "write an SQL query: select, join, group by, count",
    "basic git: undo the last commit, see history, discard changes, resolve a merge conflict",
    "configure a build tool or a CI job file for a project",
    "operating system how-to: permissions, environment variables, disk space, services",
    "use the API of a web service or SaaS product: tickets, chat messages, hosting, email",
    "connect to a cloud provider's service and call it from code",
    "which framework, library or database should I choose for my project",
    "interview questions and career advice for programmers",
    "how long will it take, estimate the effort of a task",
    "thanks, that works; okay, continue; never mind",
    "两种数据类型或关键字有什么区别",
    "解释一个编程语言特性：闭包、生成器、装饰器、指针、异步",
    "计算机基础概念：算法、数据结构、时间复杂度、递归",
    "运行时原理：垃圾回收、事件循环、线程和锁",
    "分布式系统和网络概念：一致性协议、TCP、DNS、缓存、负载均衡",
    "设计模式或编程范式是什么意思",
    "写一个小函数或代码片段：反转字符串、解析日期、排序、读文件",
    "修一下这几行代码的语法错误或拼写错误",
    "改个变量名、加注释、整理一小段代码的格式",
    "把这段代码改写成另一种编程语言",
    "写一个正则表达式匹配某种文本",
    "这个报错信息是什么意思",
    "命令行工具怎么用：参数、选项、示例命令",
    "一行 shell 命令：找文件、数行数、替换文本、看进程",
    "编辑器和 IDE 的快捷键、设置、插件",
    "用包管理器安装依赖、解决版本冲突",
    "在电脑上配置开发环境或虚拟环境",
    "容器入门：构建镜像、运行容器、看日志",
    "写一条 SQL 查询：查询、连接、分组、计数",
    "git 基本操作：撤销提交、查看历史、放弃修改、解决冲突",
    "配置项目的构建工具或 CI 任务文件",
    "操作系统怎么做：权限、环境变量、磁盘空间、服务",
    "调用某个网站或 SaaS 服务的接口：工单、聊天消息、托管、邮件",
    "连上某个云服务商的服务并在代码里调用",
    "项目该选哪个框架、库或数据库",
    "程序员面试题和职业建议",
    "估计一个任务要花多久",
    "好的谢谢，继续吧",
    "给函数加类型注解",
    "给函数写文档字符串",
    "给一个简单的函数写单元测试",
    "把一个词或一句短语翻译成另一种语言",
    "git 基础：分支、暂存、拉取、查看是谁改的、修改提交",
    "两个命令或两个函数有什么区别",
    "一条简单的数据库查询语句",
    "解释编译器、解释器或包管理器的报错信息",
)
"""One line per kind of request that no skill serves."""
