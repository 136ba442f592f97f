"""Jumanji's environments (InstaDeep's jumanji 1.1.2, JAX) in C++, keyed so that a seed gives jumanji's episodes."""
