"""A member's own account: the language of its pages and e-mails, the e-mail address for password
resets (a new one confirmed from its own mailbox), notices of changes to the old one, and leaving
for good."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import AccountLanguage, Club, MemberSession, Membership, Role
from scorekeeper.selectors.sessions import account_language

from .polls import poll_passes_revoke
from .refusals import ActionRefused, WrongPassword
from .roles import club_lock

EMAIL_CONFIRM_SALT = "scorekeeper.accounts.email_confirm"


@transaction.atomic
def account_language_set(*, user, language: str) -> None:
    """The language of `user`'s pages and e-mails: a code of settings.LANGUAGES, or "" for
    their browser's."""
    if language and language not in dict(settings.LANGUAGES):
        raise ActionRefused(_("That language is not one the app speaks."))
    if language:
        AccountLanguage.objects.update_or_create(user=user, defaults={"language": language})
    else:
        AccountLanguage.objects.filter(user=user).delete()


def in_their_language(user):
    """What an e-mail to `user` is written in: the language they chose, else the one of the page
    that sends it (their browser's)."""
    return translation.override(account_language(user_id=user.pk) or translation.get_language())


# What each notice to the account's address says changed (its subject, then its first line).
NOTICES = {
    "password": gettext_lazy("your password was changed"),
    "email": gettext_lazy("a new e-mail address was asked for"),
    "email_removed": gettext_lazy("your e-mail address was removed"),
    "two_factor_on": gettext_lazy("two-factor sign-in was turned on"),
    "two_factor_off": gettext_lazy("two-factor sign-in was turned off"),
}


def account_notice_send(*, user, change: str, address: str = "", new_address: str = "") -> None:
    """Tell the account's address (or `address`, the one it had) that `change` (a key of
    NOTICES) was made: someone else at an unattended tablet is found out by its owner."""
    address = address or user.email
    if not address:
        return
    with in_their_language(user):
        subject = _("Shanghai Scorekeeper: %(change)s") % {"change": NOTICES[change]}
        context = {"user": user, "change": change, "new_address": new_address}
        body = render_to_string("registration/account_notice_email.txt", context)
    send_mail(subject, body, None, [address])


def _password_mark(user) -> str:
    """A short digest of the password's hash: a link made before the password changed dies."""
    return salted_hmac(EMAIL_CONFIRM_SALT, user.password, algorithm="sha256").hexdigest()[:16]


def account_email_change(*, user, email: str, password: str, site: str) -> bool:
    """Change the address password resets are sent to, once the password confirms it. A new
    address only takes its place when the link mailed to it is opened (account_email_confirm);
    until then resets still go to the old one, which is told of the change. An empty `email`
    removes the address at once. `site` is the scheme and host the link starts with. Returns
    whether a link was sent (False: the address was removed, or was already this one)."""
    if not user.check_password(password):
        raise WrongPassword(_("That is not your password, so the address was not changed."))
    email = email.strip()
    if email.lower() == user.email.lower():
        return False
    if not email:
        old = user.email
        with transaction.atomic():
            user.email = ""
            user.save(update_fields=["email"])
        account_notice_send(user=user, change="email_removed", address=old)
        return False
    claim = {"user": user.pk, "from": user.email, "to": email, "mark": _password_mark(user)}
    token = signing.dumps(claim, salt=EMAIL_CONFIRM_SALT, compress=True)
    context = {
        "user": user,
        "link": site + reverse("email_confirm", args=[token]),
        "days": settings.PASSWORD_RESET_TIMEOUT // (60 * 60 * 24),
    }
    account_notice_send(user=user, change="email", new_address=email)
    with in_their_language(user):
        body = render_to_string("registration/email_confirm_email.txt", context)
        subject = _("Confirm your e-mail address for Shanghai Scorekeeper")
    send_mail(subject, body, None, [email])
    return True


def email_change_read(*, token: str, for_update: bool = False):
    """The account and the new address a confirmation link names, or ActionRefused when the
    link is broken, older than the password reset's timeout, or made before the account's
    address or password last changed (a link already used, too)."""
    try:
        claim = signing.loads(
            token, salt=EMAIL_CONFIRM_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT
        )
    except signing.SignatureExpired:
        raise ActionRefused(
            _("This link is too old: ask for the change again on your account page.")
        ) from None
    except signing.BadSignature:
        raise ActionRefused(
            _(
                "This link is not whole: copy all of it from the e-mail, or ask for the change "
                "again on your account page."
            )
        ) from None
    users = get_user_model().objects
    # Under a lock when it is confirmed: two clicks at once change the address once.
    user = (users.select_for_update() if for_update else users).filter(pk=claim["user"]).first()
    if (
        user is None
        or user.email != claim["from"]
        or not constant_time_compare(_password_mark(user), claim["mark"])
    ):
        raise ActionRefused(
            _(
                "This link no longer works: it was used already, or the account's address or "
                "password changed since it was sent."
            )
        )
    return user, claim["to"]


@transaction.atomic
def account_email_confirm(*, token: str):
    """Give the account the new address its confirmation link names (see email_change_read);
    returns the account."""
    user, email = email_change_read(token=token, for_update=True)
    user.email = email
    user.save(update_fields=["email"])
    return user


@transaction.atomic
def account_delete(*, user, password: str) -> None:
    """Delete the account once its password confirms it. Finished games stay as they are for
    the other members: they no longer say who recorded what. A club this account is the only
    owner of would be left with nobody able to run it, so that is refused first. Each of its
    clubs is locked, as every change of members is, so two co-owners leaving at once cannot
    both go: the second finds the first gone."""
    if not user.check_password(password):
        raise WrongPassword(_("That is not your password, so the account was not deleted."))
    # In the clubs' order, as one club at a time is, so two such deletions never deadlock.
    for club_id in user.memberships.order_by("club_id").values_list("club_id", flat=True):
        club_lock(club_id)
    owned = user.memberships.filter(role=Role.OWNER).values("club")
    others = Membership.objects.filter(club__in=owned, role=Role.OWNER).exclude(user=user)
    alone = Club.objects.filter(pk__in=owned).exclude(pk__in=others.values("club"))
    if alone:
        raise ActionRefused(
            _(
                "You are the only owner of %(clubs)s: make another member an owner first, or "
                "nobody could run the club again."
            )
            % {"clubs": ", ".join(club.name for club in alone)}
        )
    poll_passes_revoke(
        sessions=MemberSession.objects.filter(user=user).values_list("session_key", flat=True),
        members=user.memberships.values_list("club_id", "user_id"),
    )
    user.delete()


def session_remember(*, user, session_key: str) -> None:
    """Note that `user` signed in with this session (called as Django logs a member in)."""
    MemberSession.objects.get_or_create(session_key=session_key, defaults={"user": user})


@transaction.atomic
def sessions_end_others(*, user, session_key: str) -> int:
    """Sign `user` out of every browser but the one with `session_key` (a phone left at the
    club, a borrowed tablet). Returns how many were signed out."""
    others = MemberSession.objects.filter(user=user).exclude(session_key=session_key)
    keys = list(others.values_list("session_key", flat=True))
    poll_passes_revoke(sessions=keys)
    ended, _ = Session.objects.filter(session_key__in=keys).delete()
    others.delete()
    return ended
