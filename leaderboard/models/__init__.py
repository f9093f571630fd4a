"""Models split by domain: tasks, teams, submissions, results, difficulty (the pool), parsed lines."""
from .difficulty import GoldChunk, Pool, PoolMember
from .lines import ParsedLine
from .results import MetricResult
from .submissions import Submission
from .tasks import Dataset, Phase, SharedTask
from .teams import Membership, Team

__all__ = ["Dataset", "GoldChunk", "Membership", "MetricResult", "ParsedLine", "Phase", "Pool", "PoolMember", "SharedTask", "Submission", "Team"]
