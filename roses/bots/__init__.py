"""Computer players, one package per game: ``roseking`` and ``wotr``.

Bots see only a player's view, never what that seat may not know.
"""
