"""Quality tracking: events, per-skill metrics, the underperformer rule (seeds 000/001)."""

from lorekeeper.quality.metrics import MIN_APPLIED, SUCCESS_THRESHOLD, SkillMetrics, compute, is_underperforming
from lorekeeper.quality.tracker import QualityTracker

__all__ = ["MIN_APPLIED", "SUCCESS_THRESHOLD", "QualityTracker", "SkillMetrics", "compute", "is_underperforming"]
