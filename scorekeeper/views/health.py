"""What the app says about itself to machines: its health, and whom to tell of a security flaw."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scorekeeper.database import database_answer
from scorekeeper.selectors.tasks import tasks_health

logger = logging.getLogger(__name__)


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when it does not: for the platform's health checks."""
    try:
        database_answer()
    except DatabaseError as error:
        # Why, for whoever runs the app, in the log: the driver's words name the database's
        # host and port, which are nobody else's business (anyone may call /healthz).
        logger.warning("healthz: database unavailable: %s: %s", type(error).__name__, error)
        return JsonResponse({"database": "unavailable"}, status=503)
    return JsonResponse({"database": "ok"})


@require_GET
@never_cache
def healthz_tasks(request: HttpRequest) -> JsonResponse:
    """The deeper check, for monitoring (not for the load balancer: a worker's trouble is no
    reason to stop sending requests to an instance): the oldest task waiting, the oldest photo
    waiting to be read, the last worker's heartbeat; 200 with "tasks": "ok", 503 with
    "degraded" when a photo has waited over a minute, or when the database does not answer."""
    try:
        health = tasks_health()
    except DatabaseError as error:
        logger.warning("healthz: database unavailable: %s: %s", type(error).__name__, error)
        return JsonResponse({"database": "unavailable"}, status=503)
    return JsonResponse(health, status=200 if health["tasks"] == "ok" else 503)


@require_GET
def security_txt(request: HttpRequest) -> HttpResponse:
    """/.well-known/security.txt (RFC 9116): where to report a security flaw, and until when
    this says so (a year from now, so it never expires while the app runs)."""
    lines = [
        f"Contact: mailto:{settings.SECURITY_CONTACT}",
        f"Expires: {(timezone.now() + timedelta(days=365)).replace(microsecond=0).isoformat()}",
        "Preferred-Languages: en",
        f"Canonical: {request.build_absolute_uri()}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
