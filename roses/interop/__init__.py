"""Research interfaces: The Rose King for OpenSpiel and PettingZoo (optional extras).

``roses.interop.openspiel`` registers the OpenSpiel game ``python_rose_king`` when imported
(extra ``openspiel``); ``roses.interop.pettingzoo.env(players=2|4)`` is a PettingZoo AEC
environment (extra ``pettingzoo``). Both build on ``roses.interop.chance`` (the game with
explicit chance events) and ``roses.interop.encoding`` (the observation tensor).
"""
