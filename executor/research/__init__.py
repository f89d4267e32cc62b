"""The research family of steps (seed 001, 4.1-4.3): search, read, extract, retrieve, summarise, compute."""
