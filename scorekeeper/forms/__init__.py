"""Forms clean what players type and say what is wrong in their words; services decide the rest.

One module a subject: accounts (signing up, logging in, e-mail, deletion), clubs (clubs,
players, seasons, starting a table, importing a club), members (the invite code, roles), tables
(the round screen's taps and score entry), profiles, checks (the meld checker) and photos."""

from .accounts import (
    AccountDeleteForm,
    CodeForm,
    EmailForm,
    LanguageForm,
    LanguagePasswordResetForm,
    LoginForm,
    PasswordConfirmForm,
    SignupForm,
    TwoFactorEnableForm,
)
from .checks import CheckForm, GoingDownForm, LayOffForm, melds_clean
from .clubs import (
    ClubForm,
    ClubImportForm,
    GameStartForm,
    JoinForm,
    PlayerForm,
    SeasonForm,
    StandingsForm,
    TabletIdleForm,
    TimeZoneForm,
)
from .members import InviteForm, RoleForm
from .photos import PhotoForm, photo_check
from .profiles import ProfileForm
from .tables import (
    ScoreForm,
    SeatActionForm,
    ShanghaiForm,
    VersionedForm,
    WentOutForm,
    count_said,
    row_id,
)

__all__ = [
    "AccountDeleteForm",
    "EmailForm",
    "LanguageForm",
    "LanguagePasswordResetForm",
    "CheckForm",
    "ClubForm",
    "ClubImportForm",
    "CodeForm",
    "GameStartForm",
    "GoingDownForm",
    "InviteForm",
    "JoinForm",
    "LayOffForm",
    "LoginForm",
    "PasswordConfirmForm",
    "PhotoForm",
    "PlayerForm",
    "ProfileForm",
    "RoleForm",
    "ScoreForm",
    "SeasonForm",
    "SeatActionForm",
    "ShanghaiForm",
    "SignupForm",
    "StandingsForm",
    "TabletIdleForm",
    "TimeZoneForm",
    "TwoFactorEnableForm",
    "VersionedForm",
    "WentOutForm",
    "count_said",
    "melds_clean",
    "photo_check",
    "row_id",
]
