from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

import rules
from scorekeeper import services
from scorekeeper.forms import ProfileForm
from scorekeeper.models import Role
from scorekeeper.views.access import club_or_404, profile_or_404


def _profile_form_page(request, club, profile, *, start: rules.Variant | None = None):
    """The form of every setting: the profile's, or a new one's starting from the known game
    `start` (the seed rules when none), named after it in the member's language."""
    if profile is not None:
        house_rules, name = profile.house_rules, profile.name
    elif start is not None:
        house_rules, name = start.house_rules, gettext(start.name)
    else:
        house_rules, name = None, ""
    form = ProfileForm(request.POST or None, house_rules=house_rules, name=name)
    if request.method == "POST" and form.is_valid():
        try:
            profile = services.profile_save(
                club=club,
                user=request.user,
                profile=profile,
                name=form.cleaned_data["name"],
                house_rules=form.cleaned_data["house_rules"],
            )
        except services.ActionRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(
                request,
                gettext("Saved %(profile)s. Tables already started keep their rules.")
                % {"profile": profile},
            )
            return redirect(club)
    context = {"club": club, "profile": profile, "form": form}
    if profile is None:
        context |= {"variants": rules.VARIANTS, "variant": start}
    return render(request, "profile_form.html", context)


def _variant_asked(request) -> rules.Variant | None:
    """The known game a new profile starts from (?variant=liverpool), if one was picked."""
    try:
        return rules.variant(request.GET.get("variant", ""))
    except rules.RulesError:
        return None


@require_http_methods(["GET", "POST"])
@login_required
def profile_new(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.OWNER)
    return _profile_form_page(request, club, None, start=_variant_asked(request))


@require_http_methods(["GET", "POST"])
@login_required
def profile_edit(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk, role=Role.OWNER)
    return _profile_form_page(request, profile.club, profile)


@require_GET
@login_required
def rules_summary(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk)
    house_rules = profile.house_rules
    return render(
        request,
        "rules_summary.html",
        {
            "profile": profile,
            "lines": rules.rules_summary(house_rules),
            "contracts": list(enumerate(house_rules.contracts, start=1)),
            "house_rules": house_rules,
            "points": dict(house_rules.points),
        },
    )
