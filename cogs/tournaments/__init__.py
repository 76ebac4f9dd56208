"""Tournaments: the ``/kasino tournament`` commands, the round runner and its table threads,
the tournament's own messages and their buttons."""
