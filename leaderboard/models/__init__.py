"""Models split by domain: tasks, teams, submissions, results, difficulty (the pool), parsed lines, rate limits, human
evaluation campaigns, the boards' tie groups and the sampled scores behind them."""

from ..campaigns.models.campaigns import Assignment, Campaign, Judgment, Screen
from ..campaigns.models.invitations import Invitation
from ..campaigns.models.judgments import Judgments
from .difficulty import GoldChunk, Pool, PoolMember
from .limits import RateBucket
from .lines import ParsedLine
from .organizer import OrganizerJob
from .pages import TaskPage, TermsAcceptance
from .results import MetricResult
from .shared_tasks import Dataset, Phase, SharedTask
from .submissions import Submission
from .teams import Membership, Profile, Team
from .ties import BoardTies, SampledScores

__all__ = [
    "Assignment",
    "BoardTies",
    "Campaign",
    "Dataset",
    "GoldChunk",
    "Invitation",
    "Judgment",
    "Screen",
    "Judgments",
    "Membership",
    "MetricResult",
    "OrganizerJob",
    "ParsedLine",
    "Phase",
    "Pool",
    "PoolMember",
    "Profile",
    "RateBucket",
    "SampledScores",
    "SharedTask",
    "Submission",
    "TaskPage",
    "Team",
    "TermsAcceptance",
]
