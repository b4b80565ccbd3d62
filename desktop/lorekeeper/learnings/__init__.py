"""The reflect loop (seeds 000/001 pillar 3): corrections become rules that every next prompt carries."""

from lorekeeper.learnings.block import BUDGET, HEADER, LearningsBlock, learnings_block
from lorekeeper.learnings.service import LearningInfo, LearningService

__all__ = ["BUDGET", "HEADER", "LearningInfo", "LearningService", "LearningsBlock", "learnings_block"]
