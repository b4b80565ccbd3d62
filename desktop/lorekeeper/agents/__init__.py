"""Lorekeeper for the agents operators run: the MCP server, Claude Code hooks and their installers.

A front end like the CLI: it opens a `Workspace` and calls the same services, so every write is the
same write (and the same signed event) as the command line's.
"""
