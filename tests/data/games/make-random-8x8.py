#!/usr/bin/env python3
"""Writes random-8x8.nfg: a random 8x8 bimatrix game for the .nfg reader and solver tests.

Each player's 64 payoffs are a random permutation of 1..64 (random.Random(6), standard library
only), so no player is ever indifferent between two pure strategies and the game is
non-degenerate. Its equilibria were enumerated with lrsnash (Debian lrslib 0.71b):
7 Nash equilibria, 3 of them in pure strategies; tests/games/tst_games_io.cpp checks this again
whenever lrsnash is installed. Run from this folder: ./make-random-8x8.py > random-8x8.nfg
"""
import random

SEED = 6
rng = random.Random(SEED)
a = list(range(1, 65))
rng.shuffle(a)
b = list(range(1, 65))
rng.shuffle(b)
A = [a[8 * i:8 * i + 8] for i in range(8)]  # A[i][j]: row player's payoff, row i, column j
B = [b[8 * i:8 * i + 8] for i in range(8)]

names = " ".join(f'"s{k + 1}"' for k in range(8))
print(f'NFG 1 R "Random 8x8 bimatrix game (payoffs: permutations of 1..64, seed {SEED}): '
      f'7 Nash equilibria, 3 pure" {{ "Row" "Column" }}')
print()
print(f"{{ {{ {names} }}")
print(f"{{ {names} }}")
print("}")
print('"Written by make-random-8x8.py; equilibria counted with lrsnash."')
print()
print("{")
# One outcome per profile, in Gambit order (the row player's strategy changes fastest).
for j in range(8):
    for i in range(8):
        print(f'{{ "" {A[i][j]}, {B[i][j]} }}')
print("}")
print(" ".join(str(k + 1) for k in range(64)))
