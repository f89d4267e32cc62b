"""The research family of steps: search, read, extract, retrieve, summarise, compute."""
