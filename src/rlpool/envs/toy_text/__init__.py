"""Toy-text environments (FrozenLake, Taxi, CliffWalking, Blackjack, Catch, NChain)."""
