"""Marketplaces (seed 001 "Sage Scout"): discover skills in sources, note their fit, install or fork them."""
