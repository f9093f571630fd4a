from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .views import accounts, cleme2, comparison, heatmap, organizer, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("tasks/<slug:slug>/", pages.task_board, name="task"),
    path("tasks/<slug:slug>/rows/", pages.task_rows, name="task-rows"),
    path("tasks/<slug:slug>/submit/", pages.submit, name="submit"),
    path("tasks/<slug:slug>/per-type/", comparison.per_type, name="per-type"),
    path("tasks/<slug:slug>/difficulty/", heatmap.difficulty, name="difficulty"),
    path("tasks/<slug:slug>/difficulty/map/", heatmap.difficulty_map, name="difficulty-map"),
    path("tasks/<slug:slug>/cleme2/", cleme2.overview, name="cleme2"),
    path("tasks/<slug:slug>/cleme2/<int:pk>/", cleme2.sentences, name="cleme2-sentences"),
    path("tasks/<slug:slug>/phase/<str:action>/", organizer.phase_action, name="phase-action"),
    path("tasks/<slug:slug>/rescore/", organizer.rescore, name="rescore"),
    path("api/", include("leaderboard.api.urls")),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
