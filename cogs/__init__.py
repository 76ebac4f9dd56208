"""Discord extensions: the ``/kasino`` command group (:mod:`cogs.kasino`) and what every part
shares (custom_ids, components, refusals), with one package per capability: ``play``,
``learning``, ``records``, ``tournaments``, ``settings``."""
