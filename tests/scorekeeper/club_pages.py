"""Every page of a club as a member reads it: what a round trip (export and import, backup and
restore) compares, word for word, with only what legitimately differs made one."""

import re

from django.urls import reverse

from scorekeeper import services


def club_urls(club, *, tv: bool = True) -> list[str]:
    """The address of every page of the club: the club, its standings and club night, each
    season, each player (deleted ones too), each table with its history and photos, and with
    `tv` the TV views of the tables and of the club night (their links made where missing)."""
    owner = club.owner()
    games = list(club.games.order_by("pk"))
    urls = [
        club.get_absolute_url(),
        reverse("club_standings", args=[club.pk]),
        reverse("club_tonight", args=[club.pk]),
        *[season.get_absolute_url() for season in club.seasons.order_by("starts_on", "pk")],
        *[player.get_absolute_url() for player in club.players.order_by("name")],
        *[game.get_absolute_url() for game in games],
        *[reverse("history", args=[game.pk]) for game in games],
        *[reverse("table_photos", args=[game.pk]) for game in games],
    ]
    if tv:
        links = [services.tv_link_create(game=game, user=owner) for game in games]
        urls += [link.get_absolute_url() for link in links]
        token = services.club_tv_link_create(club=club, user=owner).tv_token
        urls.append(reverse("tonight_tv", args=[token]))
    return urls


# What a page carries for the session that reads it: the CSRF token, the signed address the
# round screen polls (signed for the session, at the moment), the tag the service worker keys
# the session's pages to, the account's id (a restored backup gives accounts new ids: they
# travel by username).
SESSIONS_OWN = [
    (re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+'), r"\1CSRF-TOKEN"),
    (re.compile(r"(/live/\?key=)[\w:-]+"), r"\1POLL-KEY"),
    (re.compile(r'(data-session=")\w+'), r"\1SESSION-TAG"),
    (re.compile(r'(data-user=")\d+'), r"\1USER"),
]


def page_markup(client, urls: list[str]) -> list[str]:
    """Each page's markup but what it carries for the session that reads it: the whole page, as
    a copy with the same ids and tokens as the original (a restored backup) must serve it."""
    pages = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        page = response.content.decode()
        for pattern, replacement in SESSIONS_OWN:
            page = pattern.sub(replacement, page)
        pages.append(page)
    return pages


def page_texts(client, urls: list[str], *, same: dict[str, str] | None = None) -> list[str]:
    """Each page's words as a reader sees them (markup and white space aside), with each text of
    `same` replaced by its value (what legitimately differs: a club's name, invite code)."""
    pages = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        text = re.sub(r"<[^>]+>", " ", response.content.decode())
        if same:
            # Whole words only, the longest first: "Table 1" is not the start of "Table 12".
            words = "|".join(re.escape(text) for text in sorted(same, key=len, reverse=True))
            text = re.sub(rf"(?<!\w)(?:{words})(?!\w)", lambda found: same[found[0]], text)
        pages.append(" ".join(text.split()))
    return pages


def tables_by_place(club) -> dict[str, str]:
    """Each of the club's tables' names ("Table 12", from its id) as its place among them: what
    a `same` of page_texts makes one between a club and its copy."""
    pks = club.games.order_by("pk").values_list("pk", flat=True)
    return {f"Table {pk}": f"Table #{place}" for place, pk in enumerate(pks, start=1)}
