"""Correspondence games as the cog sees them: each person's notice settings kept in
memory across processes (:mod:`~cogs.correspondence.prefs`), direct messages with the
refused-DM fallback (:mod:`~cogs.correspondence.notifier`), ``/kasino settings`` and
``/kasino vacation`` (:mod:`~cogs.correspondence.settings`) and the daily digest
(:mod:`~cogs.correspondence.digest`). The rules themselves are :mod:`bot.correspondence`.
"""
