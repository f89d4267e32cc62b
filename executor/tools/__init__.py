"""The tool boundary, the engine every tool call goes through, and the evidence tools gather."""
