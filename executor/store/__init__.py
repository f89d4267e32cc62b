"""What a run keeps on disk: the run store, its checkpoints, site memory, MCP run notes."""
