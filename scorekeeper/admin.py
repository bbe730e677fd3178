"""The admin: every record can be read and searched; what happened at a table, and who runs
each club, is never changed here. The services change them (a correction is the round's edit, in
the table's history): they bump the table's version so the screens follow, refresh the results
and standings, write the history, and keep every club an owner. An edit here would do none of it.

A list joins the foreign keys its `list_display` names by itself (Django does, when
`list_select_related` is left unset); the lists that set it reach further, for a row's name."""

from django.contrib import admin
from django.db.models import Model

from . import models


class ReadOnlyInline(admin.TabularInline):
    """A kept record's rows on their parent's page: shown, never added, changed or deleted."""

    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def inline(model: type[Model], **options) -> type[ReadOnlyInline]:
    """``model``'s rows as a read-only table on their parent's page."""
    return type(f"{model.__name__}Inline", (ReadOnlyInline,), {"model": model, **options})


class ClubOwnedAdmin(admin.ModelAdmin):
    """A club's named things: filtered by club, found by their name or their club's."""

    list_filter = ["club"]
    search_fields = ["name", "club__name"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records of what happened, searchable here and never changed; deleting one changes no
    table (a TV link turned off, a photo or a checker's answer gone)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class KeptAdmin(ReadOnlyAdmin):
    """What happened at a table and who runs each club: not even deleted here. Deleting
    anything that would take these with it (a club, a member's account) is refused too."""

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "invite_code", "created_at"]
    search_fields = ["name", "invite_code"]
    inlines = [inline(models.Membership)]
    exclude = ["tv_token"]  # the club night's TV address: not shown, even to staff


@admin.register(models.Player)
class PlayerAdmin(ClubOwnedAdmin):
    list_display = ["name", "club", "retired", "created_at"]


@admin.register(models.Season)
class SeasonAdmin(ClubOwnedAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]


@admin.register(models.RulesProfile)
class RulesProfileAdmin(ClubOwnedAdmin):
    list_display = ["name", "club", "updated_at"]


@admin.register(models.Game)
class GameAdmin(KeptAdmin):
    list_display = ["__str__", "club", "season", "started_at", "finished_at"]
    list_filter = ["club", "season", ("finished_at", admin.EmptyFieldListFilter)]
    search_fields = ["club__name", "seats__player__name"]
    date_hierarchy = "started_at"
    inlines = [inline(models.Seat)]


@admin.register(models.Round)
class RoundAdmin(KeptAdmin):
    list_display = ["__str__", "went_out", "finished_at"]
    list_filter = ["game__club", "number"]
    search_fields = ["game__club__name"]
    list_select_related = ["game", "went_out__player"]
    inlines = [inline(models.Hand, fields=["seat", "may_i_used", "went_down", "cards", "points"])]


@admin.register(models.Event)
class EventAdmin(KeptAdmin):
    """The history is a record: it can be read and searched here, never changed nor deleted."""

    list_display = ["created_at", "game", "kind", "description", "created_by"]
    list_filter = ["kind", "game__club"]
    search_fields = ["description", "game__club__name"]


@admin.register(models.Membership)
class MembershipAdmin(KeptAdmin):
    list_display = ["user", "club", "joined_at"]
    list_filter = ["club"]
    search_fields = ["user__username", "club__name"]


@admin.register(models.Seat)
class SeatAdmin(KeptAdmin):
    list_display = ["player", "game", "position"]
    list_filter = ["game__club"]
    search_fields = ["player__name"]


@admin.register(models.Hand)
class HandAdmin(KeptAdmin):
    list_display = ["__str__", "may_i_used", "went_down", "cards", "points"]
    list_filter = ["went_down", "round__game__club"]
    search_fields = ["seat__player__name", "cards"]
    list_select_related = ["seat__player", "round"]


@admin.register(models.TableMeld)
class TableMeldAdmin(KeptAdmin):
    list_display = ["cards", "kind", "owner", "round"]
    list_filter = ["kind"]
    search_fields = ["cards", "owner__player__name"]
    list_select_related = ["owner__player", "round__game"]


@admin.register(models.Check)
class CheckAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "game", "question", "cards", "ok"]
    list_filter = ["question", "ok"]
    search_fields = ["cards", "answer"]


@admin.register(models.Photo)
class PhotoAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "game", "round", "width", "height", "size"]
    list_filter = ["game__club"]
    search_fields = ["game__club__name"]
    list_select_related = ["game", "round__game"]


@admin.register(models.TableLink)
class TableLinkAdmin(ReadOnlyAdmin):
    """TV links: deleting one here turns it off, like its button on the round screen."""

    list_display = ["game", "created_by", "created_at"]
    search_fields = ["game__club__name"]
    exclude = ["token"]  # an address anyone could watch with: not shown, even to staff


@admin.register(models.Result)
class ResultAdmin(KeptAdmin):
    """Kept by the services from the rounds (a change here would not re-rate later tables)."""

    list_display = ["finished_at", "game", "player", "place", "total", "rating"]
    list_filter = ["club", "season"]
    search_fields = ["player__name", "club__name"]


@admin.register(models.Rivalry)
class RivalryAdmin(KeptAdmin):
    """Sums of the results, kept with them by the services (`results_rebuild` adds them up
    again)."""

    list_display = ["player", "other", "season", "games", "ahead", "behind"]
    search_fields = ["player__name", "other__name"]


@admin.register(models.PointsLeft)
class PointsLeftAdmin(KeptAdmin):
    """Sums of the results, kept with them by the services (`results_rebuild` adds them up
    again)."""

    list_display = ["player", "season", "contract", "rounds", "points"]
    search_fields = ["player__name"]


@admin.register(models.OwnerAction)
class OwnerActionAdmin(KeptAdmin):
    """The clubs' audit trails: what their owners did."""

    list_display = ["done_at", "club", "user", "summary"]
    list_filter = ["club"]
    search_fields = ["summary", "club__name", "user__username"]


@admin.register(models.MemberSession)
class MemberSessionAdmin(ReadOnlyAdmin):
    """Which browsers each account signed in from (the keys themselves not shown)."""

    list_display = ["user", "signed_in_at"]
    search_fields = ["user__username"]
    exclude = ["session_key"]  # a live session's key would let its reader in as that member


@admin.register(models.AccountLanguage)
class AccountLanguageAdmin(ReadOnlyAdmin):
    """The language each account chose (an account with none reads its browser's)."""

    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]


@admin.register(models.ClubImport)
class ClubImportAdmin(ReadOnlyAdmin):
    """Club exports imported by the workers: how each ended (the file itself is not shown)."""

    list_display = ["created_at", "club", "status", "tables", "finished_at"]
    list_filter = ["status"]
    search_fields = ["club__name"]
    exclude = ["document"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("document")


@admin.register(models.Recount)
class RecountAdmin(ReadOnlyAdmin):
    """Recounts waiting for a worker; each is deleted when done."""

    list_display = ["created_at", "club", "rebuild", "since_finished_at"]
