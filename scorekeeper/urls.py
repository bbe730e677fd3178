from django.contrib import admin
from django.urls import include, path

from .views import accounts, checker, clubs, games, health, melds, photos, profiles

urlpatterns = [
    path("", clubs.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/settings/", accounts.account, name="account"),
    path("accounts/delete/", accounts.account_delete, name="account_delete"),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("clubs/new/", clubs.club_new, name="club_new"),
    path("clubs/join/", clubs.club_join, name="club_join"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club"),
    path("clubs/<int:pk>/players/", clubs.player_add, name="player_add"),
    path("clubs/<int:pk>/seasons/", clubs.season_add, name="season_add"),
    path("clubs/<int:pk>/time-zone/", clubs.club_time_zone, name="club_time_zone"),
    path("clubs/<int:pk>/profiles/new/", profiles.profile_new, name="profile_new"),
    path("clubs/<int:pk>/tables/new/", clubs.game_new, name="game_new"),
    path("profiles/<int:pk>/", profiles.profile_edit, name="profile_edit"),
    path("tables/<int:pk>/", games.game_detail, name="game"),
    path("tables/<int:pk>/may-i/", games.may_i, name="may_i"),
    path("tables/<int:pk>/went-down/", games.went_down, name="went_down"),
    path("tables/<int:pk>/shanghai/", games.shanghai, name="shanghai"),
    path("tables/<int:pk>/went-out/", games.went_out, name="went_out"),
    path("tables/<int:pk>/score/", games.score, name="score"),
    path("tables/<int:pk>/undo/", games.undo, name="undo"),
    path("tables/<int:pk>/score/photo/", photos.score_photo, name="score_photo"),
    path("tables/<int:pk>/rounds/<int:number>/edit/", games.round_edit, name="round_edit"),
    path("tables/<int:pk>/history/", games.history, name="history"),
    path("tables/<int:pk>/check/", checker.table_check, name="table_check"),
    path("tables/<int:pk>/melds/", melds.melds_record, name="melds_record"),
    path("tables/<int:pk>/lay-off/", melds.lay_off, name="lay_off"),
    path("tables/<int:pk>/photos/", photos.table_photo, name="table_photo"),
    path("photos/<int:pk>/", photos.photo_image, name="photo"),
    path("photos/<int:pk>/delete/", photos.photo_delete, name="photo_delete"),
    path("check/", checker.checker, name="checker"),
    path("check/preview/", checker.cards_preview, name="cards_preview"),
    path("check/photo/", photos.checker_photo, name="checker_photo"),
    path("profiles/<int:pk>/summary/", profiles.rules_summary, name="rules_summary"),
]

handler500 = "scorekeeper.views.errors.server_error"
