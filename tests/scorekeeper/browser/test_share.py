"""Game over's "Share the picture" on a tablet: the picture goes to the share sheet as a file
where the tablet can share files, else the text does; with no share sheet the link downloads
the picture. The share sheet is the browser's own, outside the app: the test stands in for it."""

import pytest
from playwright.sync_api import expect

from tests.factories import finish_game, make_game

pytestmark = pytest.mark.django_db(transaction=True)

# The tablet's share sheet, recording what it was handed; `files` says whether it takes files.
SHARE_SHEET = """
  window.sharedWith = [];
  navigator.canShare = (data) => FILES && !!data.files;
  navigator.share = async (data) => {
    const files = await Promise.all((data.files || []).map(async (file) => ({
      name: file.name, type: file.type, size: file.size,
      png: new TextDecoder().decode(await file.slice(1, 4).arrayBuffer()),
    })));
    window.sharedWith.push({ title: data.title, text: data.text, files });
  };
"""


@pytest.mark.parametrize("files", [True, False], ids=["picture", "text only"])
def test_game_over_shares_the_picture_or_its_text(tablet, log_in, files):
    page = tablet
    game = finish_game(make_game(players=3))
    page.add_init_script(SHARE_SHEET.replace("FILES", "true" if files else "false"))
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    page.get_by_role("button", name="Share the picture").click()
    page.wait_for_function("() => window.sharedWith.length === 1")
    shared = page.evaluate("() => window.sharedWith[0]")
    assert shared["title"].startswith(f"{game.club} · ")
    assert "wins with" in shared["text"] and "Went out most" in shared["text"]
    if files:
        (picture,) = shared["files"]
        assert (
            picture["name"]
            == f"shanghai-{game.club.name.lower().replace(' ', '-')}-table-{game.pk}.png"
        )
        assert picture["type"] == "image/png" and picture["png"] == "PNG" and picture["size"] > 1000
    else:
        assert shared["files"] == []
    expect(page.get_by_role("button", name="Share as text")).to_be_visible()


def test_with_no_share_sheet_the_link_downloads_the_picture(tablet, log_in):
    page = tablet
    game = finish_game(make_game(players=3))
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    expect(page.get_by_role("button", name="Share as text")).to_be_hidden()
    with page.expect_download() as download:
        page.get_by_role("button", name="Share the picture").click()
    assert download.value.suggested_filename.endswith(f"-table-{game.pk}.png")
