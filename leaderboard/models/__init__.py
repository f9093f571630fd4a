"""Models split by domain: tasks, teams, submissions, results, difficulty (the pool)."""
from .difficulty import GoldChunk, Pool, PoolMember
from .judgments import Judgments
from .results import MetricResult
from .submissions import Submission
from .tasks import Dataset, Phase, SharedTask
from .teams import Membership, Team

__all__ = ["Dataset", "GoldChunk", "Judgments", "Membership", "MetricResult", "Phase", "Pool", "PoolMember", "SharedTask", "Submission", "Team"]
