"""Skills: folders with a SKILL.md, found in the project and the user's folders, routed to per request.

asi_agent.skills.skill     Skill, parse_skill      one SKILL.md and its folder
asi_agent.skills.registry  find_skills, SkillSet   where skills are found
asi_agent.skills.vectors   LocalEmbedder, ...      embedders and the vector cache
asi_agent.skills.router    SkillRouter, Route      top-K by similarity; take, choose or none
asi_agent.skills.centre    request_centres         the average request the ranking discounts
asi_agent.skills.listing   listing_text            what the model is shown
asi_agent.skills.session   SkillSession            one run's skills: /NAME, the listing, execute_skill
"""
