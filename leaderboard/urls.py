from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .views import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("tasks/<slug:slug>/", pages.task_board, name="task"),
    path("tasks/<slug:slug>/rows/", pages.task_rows, name="task-rows"),
    path("tasks/<slug:slug>/submit/", pages.submit, name="submit"),
    path("api/", include("leaderboard.api.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
