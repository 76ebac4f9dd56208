"""Discord extensions: the ``/kasino`` command group and its components."""
