"""What the bot remembers of finished matches: verifiable deals (:mod:`.deals`), a game's
record and its checks (:mod:`.record`, :mod:`.cli`), ratings (:mod:`.ratings`), profiles,
boards and head-to-head (:mod:`.profile`), and the history and replay texts
(:mod:`.replays`). Pure: storage hands rows in, the cogs show what comes out."""
