"""The atlas page: every algorithm on every game, from the shipped atlas or a sweep of the user's own."""
