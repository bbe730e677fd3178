"""A club's members: who they are and their roles for everyone in the club; the invite code,
roles and removals for its owners; leaving for any member."""

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import services
from scorekeeper.forms import InviteForm, RoleForm
from scorekeeper.models import Role
from scorekeeper.views.access import club_or_404, membership_or_404
from scorekeeper.views.outcomes import write_and_redirect

# A role's members as this page's sentences say them: newcomers "join as scorers".
ROLE_MEMBERS = {
    Role.OWNER: gettext_lazy("owners"),
    Role.SCORER: gettext_lazy("scorers"),
    Role.VIEWER: gettext_lazy("viewers"),
}


def _members_of(club_id: int) -> str:
    return reverse("members", args=[club_id])


def _members_page(request, club, *, invite_form=None, status=200) -> HttpResponse:
    context = {
        "club": club,
        "memberships": club.memberships.select_related("user"),
        "roles": Role.choices,
        "invite_joins_as": ROLE_MEMBERS[Role(club.invite_role)],
        "invite_form": invite_form or InviteForm(initial={"role": club.invite_role, "expires": ""}),
        "owner_actions": club.owner_actions.select_related("user")[:30],
    }
    return render(request, "members.html", context, status=status)


@require_GET
@login_required
def members(request: HttpRequest, pk: int) -> HttpResponse:
    return _members_page(request, club_or_404(request, pk))


@require_POST
@login_required
def invite_set(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.OWNER)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _members_page(request, club, invite_form=form)
    role = form.cleaned_data["role"]
    invite_set = partial(
        services.club_invite_set,
        club=club,
        user=request.user,
        role=role,
        expires_at=form.cleaned_data["expires_at"],
    )
    said = gettext("Newcomers with the invite code now join %(club)s as %(role)s.")
    said %= {"club": club, "role": ROLE_MEMBERS[Role(role)]}
    return write_and_redirect(request, invite_set, said=said, to=_members_of(club.pk))


@require_POST
@login_required
def invite_rotate(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.OWNER)
    rotate = partial(services.club_invite_rotate, club=club, user=request.user)
    said = gettext("A new invite code: the old one no longer works.")
    return write_and_redirect(request, rotate, said=said, to=_members_of(club.pk))


@require_POST
@login_required
def member_role(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request, pk, role=Role.OWNER)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["role"]))
        return redirect("members", pk=membership.club_id)
    role = form.cleaned_data["role"]
    role_set = partial(
        services.member_role_set, membership=membership, user=request.user, role=role
    )
    said = gettext("Saved: %(member)s's role is now %(role)s.") % {
        "member": membership.user,
        "role": Role(role).label.lower(),
    }
    return write_and_redirect(request, role_set, said=said, to=_members_of(membership.club_id))


@require_POST
@login_required
def member_remove(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request, pk, role=Role.OWNER)
    remove = partial(services.member_remove, membership=membership, user=request.user)
    said = gettext("%(member)s is no longer a member.") % {"member": membership.user}
    return write_and_redirect(request, remove, said=said, to=_members_of(membership.club_id))


@require_POST
@login_required
def club_leave(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk)
    leave = partial(services.member_leave, club=club, user=request.user)
    said = gettext("You have left %(club)s.") % {"club": club}
    return write_and_redirect(request, leave, said=said, to="home", refused_to=_members_of(club.pk))
