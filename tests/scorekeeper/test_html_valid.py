"""Every page the screen tests visit is well-formed HTML with unique ids: parsed by html5lib, the
WHATWG parser, in strict mode (any parse error fails), and its ids counted in the parsed tree.
html5lib runs in the suite itself: no Java (vnu.jar) nor node (html-validate) to install."""

from collections import Counter

import html5lib
import pytest

from tests.factories import make_tables, make_user

# slow: the tables are played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media"), pytest.mark.slow]


def html_problems(body: str) -> list[str]:
    """The parse errors of a page (html5lib's codes, with the line) and its ids used twice."""
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    tree = parser.parse(body)
    problems = [f"line {line}: {code} {values or ''}" for (line, _), code, values in parser.errors]
    ids = Counter(element.get("id") for element in tree.iter() if element.get("id"))
    problems += [f"id {id_!r} used {count} times" for id_, count in ids.items() if count > 1]
    return problems


def test_a_page_with_a_stray_end_tag_or_an_id_twice_is_caught():
    assert html_problems("<!DOCTYPE html><title>t</title><p>fine</p>") == []
    assert html_problems("<!DOCTYPE html><title>t</title><p>x</div>")
    assert html_problems('<!DOCTYPE html><title>t</title><p id="a"><p id="a">') == [
        "id 'a' used 2 times"
    ]


def test_every_page_is_valid_html_with_unique_ids(client):
    user = make_user()
    pages = make_tables(user, club="Thursday", players=["Ann", "Ben", "Cleo", "Dev", "Eve"])
    client.force_login(user)
    found = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        if problems := html_problems(response.content.decode()):
            found[name] = problems
    assert found == {}
