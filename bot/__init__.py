"""Kasino: a Discord bot for the Nordic fishing card game, with a pure rules engine.

``bot.engine`` is the rules engine (no Discord); the rest of the package is the bot:
``config`` (settings), ``storage`` (SQLite), ``games`` (game flow), ``render`` (text and
embeds), ``timers`` and ``client`` (the ``commands.Bot``). Run it with ``python -m bot``.
"""
