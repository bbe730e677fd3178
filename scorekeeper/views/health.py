import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when it does not: for the platform's health checks."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        # Why, for whoever runs the app, in the log: the driver's words name the database's
        # host and port, which are nobody else's business (anyone may call /healthz).
        logger.warning("healthz: database unavailable: %s: %s", type(error).__name__, error)
        return JsonResponse({"database": "unavailable"}, status=503)
    return JsonResponse({"database": "ok"})
