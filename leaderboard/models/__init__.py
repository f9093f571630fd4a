"""Models split by domain: tasks, teams, submissions, results, difficulty (the pool), parsed lines."""
from .difficulty import GoldChunk, Pool, PoolMember
from .judgments import Judgments
from .lines import ParsedLine
from .organizer import OrganizerJob
from .results import MetricResult
from .submissions import Submission
from .tasks import Dataset, Phase, SharedTask
from .teams import Membership, Profile, Team

__all__ = [
    "Dataset", "GoldChunk", "Judgments", "Membership", "MetricResult", "OrganizerJob", "ParsedLine", "Phase", "Pool", "PoolMember", "Profile",
    "SharedTask", "Submission", "Team",
]
