"""Tournaments: a server's Kasino night run by the bot, from sign-up to podium.

Pure logic (no discord import): the model (:mod:`.model`), pairings for each format,
standings with their tiebreaks, and how a table that did not finish is decided. Only the
screens' embeds import discord (:mod:`.board`, the server's tournaments board, and
:mod:`.embed`, the sign-up, standings and podium). The running side (threads, messages,
timers) is :mod:`cogs.tournaments.commands`; storage is :mod:`bot.storage.tournaments`.
"""
