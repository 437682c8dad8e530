"""What a comparison accepts: the pair's key constraints on rows and its tolerance on values."""
