"""One module per phase of a turn; each function cites the WR rule it implements."""
