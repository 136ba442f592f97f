"""Procgen: the 16 games of procgen 0.10.7, on procgen's own game library (libenv.so)."""
