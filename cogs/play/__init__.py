"""Playing a game: the lobby, the table the channel sees, each player's private hand and its
menus, the hand views that follow the game, and the outbox that posts within Discord's limits."""
