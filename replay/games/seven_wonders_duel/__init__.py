"""7 Wonders Duel (Antoine Bauza, Bruno Cathala; Repos Production), with its Pantheon and Agora
expansions: the rules pack only (:mod:`.pack`, data in ``rulesets/``, described in
docs/games/7-wonders-duel-data.md).

The game is not registered yet: the rules engine, events, views and bots come later and are
written against :class:`.pack.DuelPack`.
"""
