"""Craftax-Classic (craftax 1.6.1: Matthews et al.'s JAX re-implementation of Crafter) in C++, keyed as EnvPool's."""
