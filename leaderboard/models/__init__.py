"""Models split by domain: tasks, teams, submissions, results, difficulty (the pool), rate limits."""
from .difficulty import GoldChunk, Pool, PoolMember
from .limits import RateBucket
from .results import MetricResult
from .submissions import Submission
from .tasks import Dataset, Phase, SharedTask
from .teams import Membership, Profile, Team

__all__ = ["Dataset", "GoldChunk", "Membership", "MetricResult", "Phase", "Pool", "PoolMember", "Profile", "RateBucket", "SharedTask", "Submission", "Team"]
