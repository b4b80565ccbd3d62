"""Agent Skills: parsing, the versioned library with project forks, and the context router."""
