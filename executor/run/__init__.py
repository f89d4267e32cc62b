"""Driving a run from plan to bundle (the facade, the conductor, its leg), and replaying one."""
