"""People: follows and friends, presence, the block list and private messages."""
