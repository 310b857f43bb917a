import pytest

from controller.cards import Card, CardError, Suit, full_deck, parse_cards, piquet_deck


@pytest.mark.parametrize("text", ["10H", "TH", "10♥", "th", " 10h ", "T♡"])
def test_ten_of_hearts_in_every_accepted_notation(text: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (10, Suit.HEARTS)
    assert str(card) == "10H"


@pytest.mark.parametrize("text,expected", [("as", "AS"), ("Qs", "QS"), ("k♣", "KC"), ("2♦", "2D"), ("JH", "JH")])
def test_output_is_canonical(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text,fragment", [
    ("", "expected rank then suit"), ("Q", "expected rank then suit"), ("QX", "unknown suit 'X'"),
    ("1S", "unknown rank '1'"), ("11H", "unknown rank '11'"), ("0S", "unknown rank '0'"), ("ZZ", "unknown suit"),
])
def test_bad_card_text_names_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        Card.parse(text)


def test_non_text_is_rejected() -> None:
    with pytest.raises(CardError, match="must be text"):
        Card.parse(None)  # type: ignore[arg-type]


def test_decks() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    short = piquet_deck()
    assert len(set(short)) == 32
    assert {c.rank_name for c in short} == {"A", "7", "8", "9", "10", "J", "Q", "K"}
    assert set(short) <= set(deck)


def test_index_round_trip() -> None:
    assert sorted(c.index for c in full_deck()) == list(range(52))
    assert all(Card.from_index(c.index) == c for c in full_deck())


def test_parse_cards_round_trips_printing() -> None:
    texts = ["10H", "QS", "AC", "2D"]
    assert [str(c) for c in parse_cards(texts)] == texts
