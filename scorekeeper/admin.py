from django.contrib import admin

from .models import (
    Check,
    Club,
    Event,
    Game,
    Hand,
    Membership,
    Photo,
    Player,
    Result,
    Round,
    RulesProfile,
    Season,
    Seat,
    TableLink,
    TableMeld,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "invite_code", "created_at"]
    search_fields = ["name", "invite_code"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]


@admin.register(RulesProfile)
class RulesProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "updated_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "season", "started_at", "finished_at"]
    list_filter = ["club", "season", ("finished_at", admin.EmptyFieldListFilter)]
    search_fields = ["club__name", "seats__player__name"]
    date_hierarchy = "started_at"
    readonly_fields = ["rules", "version", "created_by", "started_at"]
    inlines = [SeatInline]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["seat", "may_i_used", "went_down", "cards", "points"]
    readonly_fields = ["seat"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "went_out", "finished_at"]
    list_filter = ["game__club", "number"]
    search_fields = ["game__club__name"]
    list_select_related = ["game", "went_out__player"]
    inlines = [HandInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The history is a record: it can be read and searched here, never changed."""

    list_display = ["created_at", "game", "kind", "description", "created_by"]
    list_filter = ["kind", "game__club"]
    search_fields = ["description", "game__club__name"]
    list_select_related = ["game", "created_by"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "joined_at"]
    list_filter = ["club"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "position"]
    list_filter = ["game__club"]
    search_fields = ["player__name"]
    list_select_related = ["player", "game"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "may_i_used", "went_down", "cards", "points"]
    list_filter = ["went_down", "round__game__club"]
    search_fields = ["seat__player__name", "cards"]
    list_select_related = ["seat__player", "round"]


@admin.register(TableMeld)
class TableMeldAdmin(admin.ModelAdmin):
    list_display = ["cards", "kind", "owner", "round"]
    list_filter = ["kind"]
    search_fields = ["cards", "owner__player__name"]
    list_select_related = ["owner__player", "round__game"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records of what happened at a table: searchable here, never changed."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Check)
class CheckAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "game", "question", "cards", "ok"]
    list_filter = ["question", "ok"]
    search_fields = ["cards", "answer"]
    list_select_related = ["game"]


@admin.register(Photo)
class PhotoAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "game", "round", "width", "height"]
    list_filter = ["game__club"]
    search_fields = ["game__club__name"]
    list_select_related = ["game", "round"]


@admin.register(TableLink)
class TableLinkAdmin(ReadOnlyAdmin):
    """TV links: deleting one here turns it off, like its button on the round screen."""

    list_display = ["game", "created_by", "created_at"]
    search_fields = ["game__club__name"]
    list_select_related = ["game", "created_by"]
    exclude = ["token"]  # an address anyone could watch with: not shown, even to staff


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    """Kept by the services from the rounds (a change here would not re-rate later tables)."""

    list_display = ["finished_at", "game", "player", "place", "total", "rating"]
    list_filter = ["club", "season"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["game", "player"]
