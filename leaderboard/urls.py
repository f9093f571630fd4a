from django.contrib import admin
from django.urls import include, path

from .campaigns.views import campaigns, invitations, meta
from .views import (
    accounts,
    cleme2,
    comparison,
    heatmap,
    hosting,
    live_files,
    organizer,
    pages,
    submissions,
    task_pages,
    teams,
)

urlpatterns = [
    path("", pages.home, name="home"),
    path("tasks/<slug:slug>/", pages.task_board, name="task"),
    path("tasks/<slug:slug>/rows/", pages.task_rows, name="task-rows"),
    path("tasks/<slug:slug>/own/", pages.task_own_rows, name="task-own-rows"),
    path("tasks/<slug:slug>/version/", pages.task_version, name="task-version"),
    path("live/<str:kind>/<str:filename>", live_files.live_file, name="live-file"),  # the proxy serves these itself
    path("tasks/<slug:slug>/submit/", pages.submit, name="submit"),
    path("tasks/<slug:slug>/per-type/", comparison.per_type, name="per-type"),
    path("tasks/<slug:slug>/difficulty/", heatmap.difficulty, name="difficulty"),
    path("tasks/<slug:slug>/difficulty/map/", heatmap.difficulty_map, name="difficulty-map"),
    path("tasks/<slug:slug>/cleme2/", cleme2.overview, name="cleme2"),
    path("tasks/<slug:slug>/cleme2/<int:pk>/", cleme2.sentences, name="cleme2-sentences"),
    path("tasks/<slug:slug>/meta-evaluation/", meta.meta_evaluation, name="meta-evaluation"),
    path("tasks/<slug:slug>/campaigns/", campaigns.campaigns, name="campaigns"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/", campaigns.campaign_page, name="campaign"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/judge/", campaigns.judge, name="campaign-judge"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/publish/", campaigns.publish, name="campaign-publish"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/import/", campaigns.import_file, name="campaign-import"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/delete/", campaigns.delete, name="campaign-delete"),
    path("invitations/<str:token>/", invitations.invitation, name="campaign-invitation"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/invite/", invitations.invite_more, name="campaign-invite"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/reassign/", invitations.reassign_screens, name="campaign-reassign"),
    path("tasks/<slug:slug>/campaigns/<slug:name>/remind/", invitations.remind_behind, name="campaign-remind"),
    path("tasks/<slug:slug>/phase/<str:action>/", organizer.phase_action, name="phase-action"),
    path("tasks/<slug:slug>/rescore/", organizer.rescore, name="rescore"),
    # -- organizers: host a task, phases, baselines, queued jobs --
    path("host/", hosting.new_task, name="host-task"),
    path("tasks/<slug:slug>/manage/", hosting.manage, name="task-manage"),
    path("tasks/<slug:slug>/manage/status/", hosting.task_status, name="task-status"),
    path("tasks/<slug:slug>/manage/baselines/", hosting.baselines, name="task-baselines"),
    path("tasks/<slug:slug>/manage/team-size/", hosting.team_size, name="task-team-size"),
    path("tasks/<slug:slug>/phases/new/", hosting.phase_form, name="phase-new"),
    path("tasks/<slug:slug>/phases/<slug:kind>/edit/", hosting.phase_form, name="phase-edit"),
    path("tasks/<slug:slug>/baselines/", hosting.upload_baseline, name="task-baseline"),
    path("tasks/<slug:slug>/jobs/<int:pk>/", hosting.job, name="task-job"),
    path("tasks/<slug:slug>/jobs/<int:pk>/again/", hosting.run_job_again, name="task-job-again"),
    # -- the task's own pages, terms, phase files; their organizer editors and the participants' list --
    path("tasks/<slug:slug>/pages/<slug:name>/", task_pages.task_page, name="task-page"),
    path("tasks/<slug:slug>/terms/accept/", task_pages.accept, name="terms-accept"),
    path("tasks/<slug:slug>/input/", task_pages.phase_file, {"what": "input"}, name="phase-input"),
    path("tasks/<slug:slug>/references/", task_pages.phase_file, {"what": "references"}, name="phase-references"),
    path("tasks/<slug:slug>/manage/pages/", task_pages.edit_pages, name="task-pages-edit"),
    path("tasks/<slug:slug>/manage/approval/", task_pages.approval_settings, name="task-approval"),
    path("tasks/<slug:slug>/participants.csv", task_pages.participants_export, name="task-participants"),
    path("api/", include("leaderboard.api.urls")),
    # participants: accounts (Django's log-in, log-out, password change and reset), teams, own submissions
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/signup/sent/", accounts.signup_sent, name="signup-sent"),
    path("accounts/signup/activate/<str:uidb64>/<str:token>/", accounts.signup_activate, name="signup-activate"),
    path(
        "accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"
    ),  # throttled; before Django's own
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/revoke/", accounts.revoke_token, name="revoke-token"),
    path("accounts/profile/email/<str:token>/", accounts.email_confirm, name="email-confirm"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),  # throttled; before Django's own
    path("accounts/", include("django.contrib.auth.urls")),
    path("tasks/<slug:slug>/team/", teams.team_page, name="team"),
    path("tasks/<slug:slug>/join/", teams.join_page, name="team-join"),
    path("tasks/<slug:slug>/team/<str:action>/", teams.team_action, name="team-action"),
    path("tasks/<slug:slug>/teams/", teams.task_teams, name="task-teams"),
    path("tasks/<slug:slug>/submissions/", submissions.mine, name="my-submissions"),
    path("tasks/<slug:slug>/submissions/rows/", submissions.mine_rows, name="my-submissions-rows"),
    path("tasks/<slug:slug>/submissions/<int:pk>/", submissions.detail, name="submission"),
    path(
        "tasks/<slug:slug>/submissions/<int:pk>/per-sentence/", submissions.per_sentence, name="submission-per-sentence"
    ),
    path("tasks/<slug:slug>/submissions/<int:pk>/file/", submissions.uploaded_file, name="submission-file"),
    path("tasks/<slug:slug>/submissions/<int:pk>/<str:action>/", submissions.act, name="submission-action"),
    path("admin/", admin.site.urls),
]

handler404 = "leaderboard.errors.not_found"  # JSON under /api/
