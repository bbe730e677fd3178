"""Every write the app makes. Each service is keyword-only, runs in one transaction, and either
changes everything it should or nothing at all, raising ActionRefused with the player's reason.

One module a subject: accounts, clubs (clubs, players, seasons, rule profiles, starting a table),
members (the invite code, roles, removing and leaving), tables (the versioned write and the round
screen's taps), melds, scores, undo, checks, photos, TV links, backups, and imports (a club
restored from its export, by a worker); `seasons` closes and shares seasons and plays a finished
table again; `ratings` keeps each finished table's results and the ratings (recounted by a
worker when a change reaches past the club's latest table); `events` builds each kind of
history entry's payload; `deletions` deletes players, profiles, seasons, tables and clubs
without breaking a finished table. Every write checks the member's role with
`roles.role_require` first: a RoleRefused is a PermissionDenied, answered with the 403 page and
its reason. What takes a worker is a task (`django.tasks`) the service queues in its own
transaction and the worker runs once, however often it is started."""

from .accounts import (
    account_delete,
    account_email_change,
    account_email_confirm,
    account_language_set,
    account_notice_send,
    email_change_read,
    session_remember,
    sessions_end_others,
)
from .checks import check_ask
from .clubs import (
    club_create,
    club_join,
    club_set_tablet_idle,
    club_set_time_zone,
    game_start,
    player_create,
    profile_save,
    season_create,
)
from .deletions import club_delete, game_delete, player_delete, profile_delete, season_delete
from .imports import club_import, club_import_queue, club_import_run
from .melds import meld_lay_off, melds_record, shanghai_claim_onto
from .members import (
    club_invite_rotate,
    club_invite_set,
    member_leave,
    member_remove,
    member_role_set,
)
from .photos import (
    photo_content,
    photo_delete,
    photo_read,
    photo_record,
    photos_drop,
    upload_keep,
    upload_read,
)
from .player_accounts import player_account_link, player_account_unlink
from .polls import poll_passes_revoke, poll_version_publish
from .ratings import (
    ratings_replay,
    recount_queue,
    recount_run,
    results_rebuild,
    results_refresh,
)
from .refusals import (
    ActionRefused,
    ImportRefused,
    PhotoStoreUnavailable,
    StaleState,
    WrongPassword,
)
from .roles import RoleRefused, role_require
from .scores import round_edit, round_score
from .seasons import game_play_again, season_close, season_share, season_unshare
from .tables import hand_mark_down, may_i_spend, round_record_went_out, shanghai_record
from .tv_links import club_tv_link_create, club_tv_link_revoke, tv_link_create, tv_link_revoke
from .two_factor import (
    WrongCode,
    two_factor_disable,
    two_factor_enable,
    two_factor_recovery_codes_new,
    two_factor_verify,
)
from .undo import action_undo

__all__ = [
    "ActionRefused",
    "player_account_link",
    "player_account_unlink",
    "ImportRefused",
    "PhotoStoreUnavailable",
    "RoleRefused",
    "account_delete",
    "account_email_change",
    "account_email_confirm",
    "account_language_set",
    "account_notice_send",
    "email_change_read",
    "StaleState",
    "WrongPassword",
    "action_undo",
    "check_ask",
    "club_create",
    "club_delete",
    "club_import",
    "club_import_queue",
    "club_import_run",
    "club_invite_rotate",
    "club_invite_set",
    "club_join",
    "game_delete",
    "game_play_again",
    "club_set_tablet_idle",
    "club_set_time_zone",
    "club_tv_link_create",
    "club_tv_link_revoke",
    "game_start",
    "hand_mark_down",
    "may_i_spend",
    "member_leave",
    "member_remove",
    "member_role_set",
    "meld_lay_off",
    "melds_record",
    "photo_content",
    "photo_delete",
    "photo_read",
    "photo_record",
    "photos_drop",
    "poll_passes_revoke",
    "poll_version_publish",
    "player_delete",
    "player_create",
    "profile_delete",
    "profile_save",
    "ratings_replay",
    "recount_queue",
    "recount_run",
    "results_rebuild",
    "results_refresh",
    "role_require",
    "round_edit",
    "round_record_went_out",
    "round_score",
    "season_close",
    "season_create",
    "season_delete",
    "season_share",
    "season_unshare",
    "session_remember",
    "sessions_end_others",
    "shanghai_claim_onto",
    "shanghai_record",
    "tv_link_create",
    "tv_link_revoke",
    "upload_keep",
    "upload_read",
    "WrongCode",
    "two_factor_disable",
    "two_factor_enable",
    "two_factor_recovery_codes_new",
    "two_factor_verify",
]
