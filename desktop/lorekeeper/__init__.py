"""Lorekeeper: the intelligence layer between a coding agent and its model."""

__version__ = "0.1.0"
