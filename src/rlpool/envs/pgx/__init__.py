"""PGX's board and card games (pgx 2.6.0) in C++: two-player turn-based games on rlpool's multi-agent API."""
