"""The word-POS attention module of Gan & Zhang 2020 on the word slots of a real sentence
(jieba's dictionary as the lexicon)."""
import numpy
import pytest
import torch

from spacy_cws.features.character_view import Normaliser
from spacy_cws.lexicon import LexiconMatcher, jieba_lexicon
from spacy_cws.lexicon.match_features import EVERY_FOLD
from spacy_cws.lexicon.pos_tags import COARSE_TAGS
from spacy_cws.lexicon.word_slots import SLOT_TAG_BITS, SLOT_TAG_MASK
from spacy_cws.nets.pytorch_word_pos_attention import WordPosAttention

TEXT = "国务院批准了十四个边境城市为对外开放城市。"
WIDTH = 16


@pytest.fixture(scope="module")
def slots():
    jieba = jieba_lexicon()
    words = dict.fromkeys(jieba, EVERY_FOLD)
    training = dict.fromkeys(["城市", "开放", "国务院"], EVERY_FOLD)
    tags = {word: entry.pos for word, entry in jieba.items()}
    matcher = LexiconMatcher([training, words], Normaliser(), tags, {"城市": 9, "开放": 9, "国务院": 9}, 0)
    found = matcher.batch_word_slots([TEXT], [numpy.zeros(len(TEXT), dtype=bool)], 6)[0]
    return torch.as_tensor(found)[None]  # (1, T, 6)


@pytest.fixture()
def attention():
    torch.manual_seed(0)
    return WordPosAttention(WIDTH, 8, 64, len(COARSE_TAGS)).eval()


def test_a_character_with_no_word_gets_no_context(attention, slots):
    characters = torch.randn(1, len(TEXT), WIDTH)
    empty = torch.zeros_like(slots)
    out = attention(characters, empty)
    assert torch.allclose(out, attention.output.bias.expand_as(out))
    assert not torch.allclose(attention(characters, slots), out)


def test_the_order_of_a_characters_words_does_not_matter(attention, slots):
    characters = torch.randn(1, len(TEXT), WIDTH)
    reversed_slots = slots.flip(-1)  # empty slots first, words in reverse
    assert torch.allclose(attention(characters, slots), attention(characters, reversed_slots), atol=1e-6)


def test_word_embeddings_only_for_slots_with_a_word(attention, slots):
    assert (slots >> SLOT_TAG_BITS > 0).any() and ((slots & SLOT_TAG_MASK > 0) & (slots >> SLOT_TAG_BITS == 0)).any()
    characters = torch.randn(1, len(TEXT), WIDTH)
    before = attention(characters, slots)
    with torch.no_grad():
        attention.word_embedding.weight.add_(1.0)
    after = attention(characters, slots)
    with_word = (slots >> SLOT_TAG_BITS > 0).any(-1)[0]
    changed = (before - after).abs().amax(-1)[0] > 1e-6
    assert changed[with_word].all() and not changed[~with_word].any()


def test_gradients_reach_pos_and_word_tables_and_the_query(attention, slots):
    characters = torch.randn(1, len(TEXT), WIDTH, requires_grad=True)
    attention.train()
    attention(characters, slots).sum().backward()
    assert attention.tag_embedding.weight.grad.abs().sum() > 0
    assert attention.word_embedding.weight.grad.abs().sum() > 0
    assert characters.grad.abs().sum() > 0
    with pytest.raises(ValueError, match="positive sizes"):
        WordPosAttention(WIDTH, 0, 64, len(COARSE_TAGS))
