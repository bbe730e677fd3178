"""Request-wide settings the views choose: each request starts in the site's time zone."""

from django.utils import timezone


def club_time_zone(get_response):
    """Views of a club's pages activate its time zone (club_or_404, game_or_404); this puts the
    default back after every response, so the next request on this thread starts clean."""

    def middleware(request):
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
