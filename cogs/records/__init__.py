"""What the bot remembers of people and matches: history, replays and exports, profiles,
and forgetting a person (``/kasino forget-me``) everywhere the bot keeps them."""
