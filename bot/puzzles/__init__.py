"""A puzzle a day: positions from finished games whose best move is provably best.

Pure logic, no Discord: :mod:`.solve` values every move of a two-player last-deal
position exactly, :mod:`.extract` finds puzzles in a finished game's record,
:mod:`.daily` picks a server's puzzle of the day, :mod:`.judge` judges an answer,
:mod:`.streak` counts solved days, and :mod:`.builtin` holds the shipped set
(``python -m bot.puzzles build`` makes it). The cog is ``cogs/learning/puzzles.py``.
"""
