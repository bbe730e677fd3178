"""Every address of scorekeeper/urls.py is answered by a view written with `def` at the top of
a module of scorekeeper/views, with its decorators: grep finds it, and a traceback names it.
No view is made by a factory (STYLE.md, convention 12). Django's class-based auth views, ours
(password_reset) and those of django.contrib.auth.urls, are the one exception; the
admin site's views are Django's own."""

import sys

import pytest
from django.contrib.auth import views as auth_views
from django.urls import URLResolver, get_resolver


def addresses(patterns, prefix=""):
    """(address, view) for every address, the included ones too; not the admin site's."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name != "admin":
                yield from addresses(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


ADDRESSES = dict(addresses(get_resolver().url_patterns))


@pytest.mark.parametrize("address", ADDRESSES)
def test_every_address_has_a_view_defined_with_def(address):
    view = ADDRESSES[address]
    if hasattr(view, "view_class"):  # as_view() of a class-based view
        assert view.view_class.__module__ == auth_views.__name__, view.view_class
        return
    assert view.__module__.startswith("scorekeeper.views."), view.__module__
    assert "<locals>" not in view.__qualname__, f"{view.__qualname__} was made by a factory"
    assert view.__qualname__ == view.__name__
    assert getattr(sys.modules[view.__module__], view.__name__) is view


def test_every_address_is_checked_but_the_admin_sites():
    assert "tables/<int:pk>/may-i/" in ADDRESSES
    assert "accounts/password_reset/done/" in ADDRESSES  # from django.contrib.auth.urls
    assert not any(address.startswith("admin/") for address in ADDRESSES)
