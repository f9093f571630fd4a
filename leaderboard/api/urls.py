from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from ..campaigns.api import campaigns, meta
from ..campaigns.api import invitations as campaign_invitations
from . import exports, me, submission_actions, task_pages, views

urlpatterns = [
    path("auth/token/", views.TokenLogin.as_view(), name="api-token"),
    path("tasks/", views.TaskList.as_view(), name="api-tasks"),
    path("tasks/<slug:slug>/", views.TaskDetail.as_view(), name="api-task"),
    path("tasks/<slug:slug>/submissions/", views.SubmissionCreate.as_view(), name="api-submit"),
    path("tasks/<slug:slug>/leaderboard/", views.Leaderboard.as_view(), name="api-leaderboard"),
    path("tasks/<slug:slug>/leaderboard/export", exports.LeaderboardExport.as_view(), name="api-leaderboard-export"),
    path("tasks/<slug:slug>/difficulty/", views.Difficulty.as_view(), name="api-difficulty"),
    path("tasks/<slug:slug>/meta-evaluation/", meta.MetaEvaluation.as_view(), name="api-meta-evaluation"),
    path("tasks/<slug:slug>/campaigns/", campaigns.Campaigns.as_view(), name="api-campaigns"),
    path("tasks/<slug:slug>/campaigns/<slug:campaign>/", campaigns.CampaignDetail.as_view(), name="api-campaign"),
    path("tasks/<slug:slug>/campaigns/<slug:campaign>/next/", campaigns.NextScreen.as_view(), name="api-campaign-next"),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/judgments/",
        campaigns.JudgmentCreate.as_view(),
        name="api-campaign-judgments",
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/judgments.xml", campaigns.Export.as_view(), name="api-campaign-xml"
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/judgments.csv",
        campaigns.ExportCsv.as_view(),
        name="api-campaign-csv",
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/publish/", campaigns.Publish.as_view(), name="api-campaign-publish"
    ),
    path("tasks/<slug:slug>/campaigns/<slug:campaign>/import/", campaigns.Import.as_view(), name="api-campaign-import"),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/invitations/",
        campaign_invitations.Invitations.as_view(),
        name="api-campaign-invitations",
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/invitations/<int:invitation>/reassign/",
        campaign_invitations.Reassign.as_view(),
        name="api-campaign-reassign",
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/remind/",
        campaign_invitations.Remind.as_view(),
        name="api-campaign-remind",
    ),
    path(
        "tasks/<slug:slug>/campaigns/<slug:campaign>/skip/",
        campaign_invitations.Skip.as_view(),
        name="api-campaign-skip",
    ),
    path("tasks/<slug:slug>/input/", task_pages.PhaseFile.as_view(), name="api-input"),
    path("tasks/<slug:slug>/references/", task_pages.PhaseReferences.as_view(), name="api-references"),
    path("tasks/<slug:slug>/pages/", task_pages.TaskPages.as_view(), name="api-pages"),
    path("tasks/<slug:slug>/pages/<slug:name>/", task_pages.TaskPageEdit.as_view(), name="api-page"),
    path("tasks/<slug:slug>/terms/", task_pages.Terms.as_view(), name="api-terms"),
    path(
        "tasks/<slug:slug>/participants/export", task_pages.ParticipantsExport.as_view(), name="api-participants-export"
    ),
    path("submissions/<int:pk>/", views.SubmissionDetail.as_view(), name="api-submission"),
    path("me/submissions/", me.MySubmissions.as_view(), name="api-my-submissions"),
    path("submissions/<int:pk>/status/", submission_actions.SubmissionStatus.as_view(), name="api-submission-status"),
    path(
        "submissions/<int:pk>/sentences/",
        submission_actions.SubmissionSentences.as_view(),
        name="api-submission-sentences",
    ),
    path(
        "submissions/<int:pk>/<str:action>/",
        submission_actions.SubmissionAction.as_view(),
        name="api-submission-action",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the split view serves Swagger UI's settings as a script of their own (?script): no inline script (CSP)
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path(
        "redoc/", SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"), name="api-redoc"
    ),
]
