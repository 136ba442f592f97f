"""MARLGrid (EnvPool 1.2.7's envpool.marlgrid, after kandouss/marlgrid): simultaneous multi-agent grid worlds in C++."""
