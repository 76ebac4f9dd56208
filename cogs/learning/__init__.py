"""Learning the games: lessons, the puzzle of the day, analysed replays, and the private
practice surface lessons and puzzles are played on."""
