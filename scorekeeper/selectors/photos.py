"""What the photos of a hand read: one photo, or two of a hand too wide for one shot, merged so
that no card counts twice; and how many cards each hand usually holds, for the count check."""

from collections import Counter, defaultdict
from dataclasses import dataclass

import rules
from recognizer import SURE_CONFIDENCE
from scorekeeper.models import Event, Photo, PhotoStatus, Round

from .boards import Board

# The most cards a hand's count row offers when the rules would allow more: a fan of a deck.
MOST_CARDS_OFFERED = 24


@dataclass(frozen=True)
class Shot:
    """One photo of a hand, as the page names it (photo 1, photo 2) and shows it (`src`, or ""
    for a photo the page shows from its own file)."""

    photo: Photo
    number: int
    src: str


@dataclass(frozen=True)
class ReadCard:
    """A card of the hand and the photos it was seen in (their numbers)."""

    card: str
    confidence: float
    shots: tuple[int, ...]

    @property
    def unsure(self) -> bool:
        return self.confidence < SURE_CONFIDENCE

    @property
    def percent(self) -> int:
        return round(self.confidence * 100)


@dataclass(frozen=True)
class Unread:
    """Where the recognizer looked but was unsure: a card perhaps missed, on photo `shot`."""

    card: str
    confidence: float
    box: list[int]
    shot: int
    label_size: int

    @property
    def percent(self) -> int:
        return round(self.confidence * 100)

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    @property
    def label_y(self) -> int:
        return max(self.box[1] - self.label_size // 3, self.label_size)


@dataclass(frozen=True)
class HandReading:
    """A hand's photos and what they read together."""

    shots: list[Shot]
    cards: list[ReadCard]
    unread: list[Unread]

    @property
    def reading(self) -> bool:
        """A photo of the hand is still being read."""
        return any(shot.photo.status == PhotoStatus.READING for shot in self.shots)

    @property
    def read(self) -> bool:
        """Every photo is read, and at least one could be."""
        return not self.reading and any(
            shot.photo.status == PhotoStatus.READ for shot in self.shots
        )

    @property
    def counted(self) -> bool:
        """The count check applies: a photo is being read or was; a hand whose photos could
        not be read is typed."""
        return self.reading or self.read

    @property
    def problems(self) -> list[str]:
        return [shot.photo.problem for shot in self.shots if shot.photo.problem]

    @property
    def card_text(self) -> str:
        return " ".join(card.card for card in self.cards)

    @property
    def unsure_indices(self) -> list[int]:
        return [index for index, card in enumerate(self.cards) if card.unsure]

    @property
    def latest(self) -> Photo:
        return self.shots[-1].photo


def cards_merged(readings: list[list[dict]]) -> list[ReadCard]:
    """The cards of one hand read from its photos (one or two, in the order taken), each counted
    once, in the order read: the first photo's cards, then those only the second saw.

    The same card seen in both photos is one physical card, counted once, with the surer of its
    two readings. With two or more decks a hand may hold two equal cards: each photo's copies of
    a card are matched in turn, so two 7H seen in one photo count twice, but one 7H in each photo
    counts once (nothing tells a second copy from the same card seen again; the count check
    then says a card is missing)."""
    merged: list[ReadCard] = []
    where: dict[str, list[int]] = defaultdict(list)  # card -> its places in `merged`
    for number, detections in enumerate(readings, start=1):
        copies: Counter[str] = Counter()
        for found in detections:
            card, confidence = found["card"], found["confidence"]
            copies[card] += 1
            if copies[card] <= len(where[card]):
                place = where[card][copies[card] - 1]
                earlier = merged[place]
                if number not in earlier.shots:
                    merged[place] = ReadCard(
                        card, max(confidence, earlier.confidence), (*earlier.shots, number)
                    )
                    continue
            where[card].append(len(merged))
            merged.append(ReadCard(card, confidence, (number,)))
    return merged


def hand_reading(shots: list[Shot]) -> HandReading:
    """What a hand's photos read together, with the readings too weak to count that may be a
    card missed: the strongest of each card not read in either photo."""
    read = [shot for shot in shots if shot.photo.status == PhotoStatus.READ]
    cards = cards_merged([shot.photo.detections for shot in read])
    known = {card.card for card in cards}
    unread: dict[str, Unread] = {}
    for shot in read:
        for found in shot.photo.unread:
            card = found["card"]
            if card in known or (card in unread and unread[card].confidence >= found["confidence"]):
                continue
            unread[card] = Unread(
                card, found["confidence"], found["box"], shot.number, shot.photo.label_size
            )
    strongest = sorted(unread.values(), key=lambda candidate: -candidate.confidence)
    return HandReading(shots=shots, cards=cards, unread=strongest)


def photo_address(photo: Photo) -> str:
    return photo.get_absolute_url()


def hand_shots(photos: list[Photo], src=photo_address) -> list[Shot]:
    """A hand's photos of a round, oldest first, as the page shows them: the newest first photo
    and the second photo taken after it, if any (`src(photo)` is where each is shown from)."""
    first = None
    for photo in photos:
        if not photo.second:
            first = photo
    if first is None:
        return []
    seconds = [photo for photo in photos if photo.second and photo.pk > first.pk]
    kept = [first, *seconds[-1:]]
    return [Shot(photo, number, src(photo)) for number, photo in enumerate(kept, start=1)]


def hand_readings(round_: Round, *, seat_id: int | None = None) -> dict[int, HandReading]:
    """What the photos of each hand taken for the round's score entry read, by seat id (of the
    one seat, with `seat_id`), in one query."""
    found = Photo.objects.filter(round=round_, seat__isnull=False)
    if seat_id is not None:
        found = found.filter(seat_id=seat_id)
    photos: dict[int, list[Photo]] = defaultdict(list)
    for photo in found.order_by("pk"):
        photos[photo.seat_id].append(photo)
    readings = {seat: hand_reading(hand_shots(taken)) for seat, taken in photos.items()}
    return {seat: reading for seat, reading in readings.items() if reading.shots}


@dataclass(frozen=True)
class HeldCount:
    """The count check's number row for a hand: how many cards it usually holds, and the most
    the row offers."""

    usually: int
    most: int
    # The key the checker's page keeps the number said under, for the round.
    remember: str = ""

    @property
    def choices(self) -> range:
        return range(1, self.most + 1)


def checker_count(house_rules: rules.HouseRules, number: int, *, remember: str) -> HeldCount:
    """The checker's count check for a photo of a hand in round `number`: it holds the deal
    unless the player says otherwise (which hand it is, the checker does not know)."""
    most = min(house_rules.most_cards_held(number), MOST_CARDS_OFFERED)
    return HeldCount(house_rules.cards_dealt[number - 1], most, remember)


def cards_down(board: Board) -> Counter[int]:
    """How many cards each seat put on the table from its hand in the round being scored, by
    seat id: the melds it went down with and what it laid off on anyone's. A meld grown by a
    lay-off or a Shanghai claim onto it holds cards that did not come from its owner's hand; one
    query, and none before anyone went down."""
    down = Counter()
    owners = {}
    for line in board.lines:
        for meld in line.melds:
            owners[meld.pk] = line.seat.pk
            down[line.seat.pk] += len(meld.card_list)
    if not owners:
        return down
    grown = board.current.events.filter(
        kind__in=[Event.Kind.LAID_OFF, Event.Kind.SHANGHAI_CLAIM],
        undone_by__isnull=True,
        after__has_key="meld",
    ).values_list("kind", "seat_id", "before", "after")
    for kind, seat_id, before, after in grown:
        cards = len(rules.parse_cards(after["cards"])) - len(rules.parse_cards(before["cards"]))
        if after["meld"] in owners:
            down[owners[after["meld"]]] -= cards
        if kind == Event.Kind.LAID_OFF:
            down[seat_id] += cards
    return down


def held_counts(board: Board) -> dict[int, HeldCount]:
    """For each hand of the round being scored, by seat id, how many cards it usually holds (the
    deal and its May I?s, less what went down and what it laid off: see
    HouseRules.cards_left_usually)."""
    if not board.current:
        return {}
    number, house_rules = board.current.number, board.house_rules
    most = min(house_rules.most_cards_held(number), MOST_CARDS_OFFERED)
    down = cards_down(board)
    counts = {}
    for line in board.lines:
        if line.hand is None:
            continue
        usually = house_rules.cards_left_usually(
            number,
            may_i_used=line.hand.may_i_used,
            shanghai_claims=board.claims.get(line.seat.pk, 0),
            cards_down=down[line.seat.pk],
        )
        counts[line.seat.pk] = HeldCount(usually=max(usually, 1), most=max(most, usually))
    return counts
