"""Django system checks of the hosted setup (`manage.py check`, which `migrate` in the release
step runs too): a deploy that would lose photos, cannot reach them, or counts every visitor as
one address never starts silently; nor does a table action that names a form or service that
is not there."""

import re
from ipaddress import ip_address

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.files.storage import FileSystemStorage, storages
from django.utils.module_loading import import_string

from scorekeeper.actions import TAPS


@register(Tags.files)
def photo_store_reachable(app_configs, **kwargs) -> list:
    """The bucket of DJANGO_STORAGE_URL answers with these credentials."""
    # Imported as the check runs: the services bring the recognizer, which loading the app
    # (django.setup) must not (tests/recognition/test_imports.py).
    from scorekeeper.services.photos import photo_store_problem

    problem = photo_store_problem()
    if problem:
        return [
            Error(
                f"The photo store cannot be used: {problem}",
                hint="Check DJANGO_STORAGE_URL (bucket, endpoint_url, region_name) and the "
                "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY credentials.",
                id="scorekeeper.E001",
            )
        ]
    return []


@register(Tags.files, deploy=True)
def photos_outlive_the_disk(app_configs, **kwargs) -> list:
    if settings.EPHEMERAL_DISK and isinstance(storages["default"], FileSystemStorage):
        return [
            Error(
                "Photos are kept on a disk that DJANGO_EPHEMERAL_DISK says is thrown away: "
                "every photo would be lost at the next deploy or restart.",
                hint="Set DJANGO_STORAGE_URL to an S3-compatible bucket.",
                id="scorekeeper.E002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def proxy_counted_for_addresses(app_configs, **kwargs) -> list:
    if settings.SECURE_PROXY_SSL_HEADER and not settings.TRUSTED_PROXY_COUNT:
        return [
            Warning(
                "SECURE_PROXY_SSL_HEADER trusts a proxy in front, but DJANGO_TRUSTED_PROXIES "
                "names none: every visitor would be counted by the proxy's address, and a few "
                "wrong passwords from anyone would lock every member out.",
                hint="Set DJANGO_TRUSTED_PROXIES to the number of proxies in front (1 on most "
                "platforms), or to their addresses.",
                id="scorekeeper.W001",
            )
        ]
    return []


def _reached_directly(host: str) -> bool:
    """An ALLOWED_HOSTS entry that answers requests which need not come through the proxy:
    any host at all, or an address other than the machine's own loopback."""
    if host == "*":
        return True
    try:
        return not ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@register(Tags.security, deploy=True)
def proxy_count_not_bypassed(app_configs, **kwargs) -> list:
    """Behind DJANGO_TRUSTED_PROXIES given as a count, the client's address is read from
    X-Forwarded-For on trust: a request that reaches the app without the proxy may write any
    address there, and escape the lockout and the throttles. The app cannot see how it is
    reached; what it can see is a host list that takes requests the proxy would not send."""
    if not settings.TRUSTED_PROXY_COUNT or settings.TRUSTED_PROXY_LIST:
        return []
    direct = [host for host in settings.ALLOWED_HOSTS if _reached_directly(host)]
    if not direct:
        return []
    return [
        Warning(
            "DJANGO_TRUSTED_PROXIES counts the proxies in front, but DJANGO_ALLOWED_HOSTS "
            f"also answers {', '.join(direct)}: a request that reaches the app without the "
            "proxy could name any address in X-Forwarded-For and escape the login lockout "
            "and the throttles.",
            hint="Make the app reachable only through the proxy and list only the site's "
            "host names in DJANGO_ALLOWED_HOSTS, or give DJANGO_TRUSTED_PROXIES the proxies' "
            "addresses instead of a count.",
            id="scorekeeper.W002",
        )
    ]


# A tap's word as the offline queue reads it from its address (static/js/live.js, `KIND`).
TAP_WORD = re.compile(r"[a-z-]{1,40}")


@register(Tags.urls)
def taps_resolve(app_configs, **kwargs) -> list:
    """Each tap of the round screen (scorekeeper/actions.py, `TAPS`) names a form and a service
    that import, under a word its address can carry: a typo stops the start, not a tap."""
    return [Error(problem, id="scorekeeper.E003") for problem in tap_problems(TAPS)]


def tap_problems(taps: dict) -> list[str]:
    """What is wrong with each of `taps` (word: `Tap`), in words."""
    problems = []
    for word, tap in taps.items():
        if not TAP_WORD.fullmatch(word):
            problems.append(f"The tap {word!r} is not lower-case words and hyphens.")
        for named in tap.paths:
            try:
                import_string(named)
            except ImportError as error:
                problems.append(f"The tap {word!r} names {named}: {error}")
    return problems
