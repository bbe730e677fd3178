"""The floor of a tap, for `tools.loadtest.profile write`: a view on the app's whole stack
(session, login, CSRF, the same middleware) that makes one durable write, an UPDATE of the
table's version in a transaction of its own, and answers with a small render. Only this URL
configuration, which the profile puts in front of the app's, serves it: the app has no such page."""

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path
from django.views.decorators.http import require_POST

from scorekeeper.models import Game
from scorekeeper.urls import handler500  # noqa: F401 (the app's error page, here too)
from scorekeeper.urls import urlpatterns as app_urlpatterns

ANSWER = engines["django"].from_string("<p>{{ touched }} table written.</p>")


@require_POST
@login_required
def table_touch(request: HttpRequest, pk: int) -> HttpResponse:
    with transaction.atomic(durable=True):
        touched = Game.objects.filter(pk=pk, club__memberships__user=request.user).update(
            version=F("version") + 1
        )
    return HttpResponse(ANSWER.render({"touched": touched}, request))


urlpatterns = [path("tables/<int:pk>/touch/", table_touch), *app_urlpatterns]
