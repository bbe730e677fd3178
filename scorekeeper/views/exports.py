from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import services
from scorekeeper.forms import ClubImportForm
from scorekeeper.models import UNDER_WAY, Club, Role
from scorekeeper.selectors import archive, score_sheet
from scorekeeper.views.access import club_import_or_404, club_or_404


def _download(content: str | bytes, *, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    # Scores are the club's own: never kept by a shared cache.
    response["Cache-Control"] = "private, no-store"
    return response


def _file_name(club: Club, *parts: str, extension: str) -> str:
    stem = "-".join([slugify(club.name) or "club", *map(slugify, parts), f"{club.today()}"])
    return f"{stem}.{extension}"


@require_GET
@login_required
def club_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk)
    return _download(
        archive.club_export_json(club),
        name=_file_name(club, extension="json"),
        content_type="application/json; charset=utf-8",
    )


@require_GET
@login_required
def club_export_csv(request: HttpRequest, pk: int, season_pk: int | None = None) -> HttpResponse:
    club = club_or_404(request, pk)
    season = get_object_or_404(club.seasons, pk=season_pk) if season_pk else None
    # With a byte-order mark, spreadsheets read the file as UTF-8 (names keep their accents).
    return _download(
        score_sheet.score_sheet_csv(club, season).encode("utf-8-sig"),
        name=_file_name(club, *([season.name] if season else []), extension="csv"),
        content_type="text/csv; charset=utf-8",
    )


@require_http_methods(["GET", "POST"])
@login_required
def club_import(request: HttpRequest, pk: int) -> HttpResponse:
    """The import form of an empty club. A file sent is checked quickly and queued for a worker
    to import, and its progress page follows; while one is under way, that page is shown."""
    club = club_or_404(request, pk, role=Role.OWNER)
    under_way = club.imports.filter(status__in=UNDER_WAY).only("pk").first()
    if under_way is not None:
        return redirect(under_way)
    form = ClubImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            queued = services.club_import_queue(
                club=club, user=request.user, document=form.cleaned_data["document"]
            )
        except services.ImportRefused as refusal:
            form.add_error("document", str(refusal))
        else:
            return redirect(queued)
    empty = not (club.players.exists() or club.games.exists())
    return render(request, "club_import.html", {"club": club, "form": form, "empty": empty})


@require_GET
@login_required
def club_import_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """An import's page, for the club's owners: while a worker has the file, it polls every
    second, answered 204 while the import is as the page shows it (`shown`); then what was
    imported, or why nothing was."""
    club_import = club_import_or_404(request, pk)
    if request.htmx and request.GET.get("shown") == club_import.status:
        return HttpResponse(status=204)
    context = {"club": club_import.club, "club_import": club_import}
    template = "club_import_progress.html"
    return render(request, f"{template}#progress" if request.htmx else template, context)
