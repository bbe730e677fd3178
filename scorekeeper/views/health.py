from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when it does not: for the platform's health checks."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        # Why, for whoever runs the app: the kind of failure and the driver's first line.
        reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        return JsonResponse({"database": "unreachable", "reason": reason.strip()}, status=503)
    return JsonResponse({"database": "ok"})
