"""7 Wonders (Antoine Bauza; Repos Production): the card-drafting game, on the game contract."""
