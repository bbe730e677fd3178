"""The client's address, which the login lockout (django-axes) and the throttles
(django-ratelimit) count attempts by.

With no proxy configured it is REMOTE_ADDR, and a forged X-Forwarded-For changes nothing. Behind
DJANGO_TRUSTED_PROXIES it is the address the outermost trusted proxy received the request from:
each proxy appends the address it heard from to X-Forwarded-For, so the chain, with REMOTE_ADDR
(the innermost proxy) at its end, is read from the right, past the trusted proxies, by
python-ipware. Whatever a client wrote to the left of that is never read.
"""

from django.conf import settings
from django.http import HttpRequest
from python_ipware import IpWare


def client_address(request: HttpRequest) -> str:
    remote = request.META.get("REMOTE_ADDR", "")
    if not settings.TRUSTED_PROXY_COUNT:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    chain = f"{forwarded}, {remote}" if forwarded else remote
    ipware = IpWare(
        precedence=("HTTP_X_FORWARDED_FOR",),
        proxy_count=settings.TRUSTED_PROXY_COUNT,
        proxy_list=settings.TRUSTED_PROXY_LIST or None,
    )
    address, trusted = ipware.get_client_ip({"HTTP_X_FORWARDED_FOR": chain}, strict=False)
    # A request that did not come through the proxies (a shorter chain, or one whose proxies
    # are not the trusted ones) is counted by the address it came from.
    return str(address) if address is not None and trusted else remote
