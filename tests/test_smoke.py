from solitaire.core.cards import card_name
from solitaire.core.shuffle import shuffled_deck


def test_deal_one_is_fixed_forever():
    # The shuffle is our own algorithm: these cards must never change.
    assert [card_name(c) for c in shuffled_deck(1)[:5]] == ['7D', '9C', '4D', '8H', '8D']


def test_variants_lists_klondike(cli):
    result = cli("variants")
    assert result.code == 0
    names = [line.split()[0] for line in result.out.splitlines() if line and not line[0].isspace()]
    assert "klondike" in names
