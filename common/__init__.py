"""The bottom of the layer graph: contracts, ids and time that every other package may import."""
