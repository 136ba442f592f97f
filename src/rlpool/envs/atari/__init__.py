"""Atari 2600 games on the Arcade Learning Environment (ALE)."""
