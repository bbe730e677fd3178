from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.forms import ProfileForm
from scorekeeper.models import Club, RulesProfile
from scorekeeper.views.clubs import club_or_404


def profile_or_404(request: HttpRequest, pk: int) -> RulesProfile:
    try:
        profile = RulesProfile.objects.select_related("club").get(
            pk=pk, club__in=Club.objects.for_user(request.user)
        )
    except RulesProfile.DoesNotExist:
        raise Http404("No such rule profile") from None
    timezone.activate(profile.club.time_zone)
    return profile


def _profile_form_page(request, club, profile):
    form = ProfileForm(
        request.POST or None,
        house_rules=profile.house_rules if profile else None,
        name=profile.name if profile else "",
    )
    if request.method == "POST" and form.is_valid():
        try:
            profile = services.profile_save(
                club=club,
                profile=profile,
                name=form.cleaned_data["name"],
                house_rules=form.cleaned_data["house_rules"],
            )
        except services.ActionRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, f"Saved {profile}. Tables already started keep their rules.")
            return redirect(club)
    return render(request, "profile_form.html", {"club": club, "profile": profile, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def profile_new(request: HttpRequest, pk: int) -> HttpResponse:
    return _profile_form_page(request, club_or_404(request, pk), None)


@require_http_methods(["GET", "POST"])
@login_required
def profile_edit(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk)
    return _profile_form_page(request, profile.club, profile)
