"""ViZDoom scenarios on the ViZDoom engine (controller library built from the vizdoom sdist)."""
