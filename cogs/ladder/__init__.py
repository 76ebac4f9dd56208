"""The ladder: a rated game against someone from any server (``/kasino queue``)."""
