"""highway-env 1.12.1's driving scenarios in C++ (road networks, vehicles, observations, actions, scenarios)."""
