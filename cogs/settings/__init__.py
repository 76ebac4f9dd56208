"""A server's and a person's choices: the language of each message and the deck's colours."""
