"""Lexicon match flags against a brute-force search, on real text and jieba's dictionary."""
import random

import pytest

from spacy_cws.corpora.formats import read_segmented
from spacy_cws.features.character_view import Normaliser
from spacy_cws.lexicon import BITS_PER_CHANNEL, LexiconMatcher, jieba_lexicon, match_features
from spacy_cws.lexicon.match_features import EVERY_FOLD, normalised_keys, text_fold

NORMALISER = Normaliser()


def normalised_masks(channels):
    """Per channel its normalised keys with the fold masks of every word that maps to them."""
    keyed = []
    for words in channels:
        masks = {}
        for key, mask in zip(normalised_keys(list(words), NORMALISER), words.values()):
            masks[key] = masks.get(key, 0) | mask
        keyed.append(masks)
    return keyed


def brute_force_flags(symbols, spaced, keys, fold=None):
    """The flags by trying every substring of the text (quadratic: the reference)."""
    flags = [0] * len(symbols)
    for start in range(len(symbols)):
        for end in range(start + 1, len(symbols) + 1):
            if any(spaced[start + 1 : end]):
                break
            for channel, masks in enumerate(keys):
                mask = masks.get(symbols[start:end], 0)
                if not (mask & (~(1 << fold) if fold is not None else EVERY_FOLD)):
                    continue
                base = channel * BITS_PER_CHANNEL
                length = end - start
                if length == 1:
                    flags[start] |= 1 << (base + 12)
                    continue
                bucket = min(length, 5) - 2
                flags[start] |= 1 << (base + bucket)
                flags[end - 1] |= 1 << (base + 4 + bucket)
                for inner in range(start + 1, end - 1):
                    flags[inner] |= 1 << (base + 8 + bucket)
    return flags


def jackknifed_words(sentences, n_folds=10):
    """The training-words channel of ``sentences``: each word with the mask of its sentences' folds."""
    training = {}
    for words in sentences:
        fold_bit = 1 << text_fold("".join(words), n_folds)
        for word in words:
            training[word] = training.get(word, 0) | fold_bit
    return training


@pytest.fixture(scope="module")
def ctb6_sentences(shared_data):
    sentences = list(read_segmented(shared_data / "ctb6" / "dev.seg", "sighan"))
    return [s.words for s in sentences]


def test_flags_equal_brute_force_on_ctb6_with_jieba_and_training_words(ctb6_sentences):
    rng = random.Random(0)
    training = jackknifed_words(ctb6_sentences[:1500])
    jieba_words = {word: EVERY_FOLD for word in jieba_lexicon()}
    channels = [training, jieba_words]
    matcher = LexiconMatcher(channels, NORMALISER)
    assert matcher.n_bits == 2 * BITS_PER_CHANNEL
    keys = normalised_masks(channels)
    checked = 0
    for words in rng.sample(ctb6_sentences[:1500], 40) + rng.sample(ctb6_sentences[1500:], 20):
        # Spaces between some words: no lexicon word may match across them.
        text = "".join(word + (" " if rng.random() < 0.1 else "") for word in words)
        view = NORMALISER(text)
        for fold in (None, text_fold(text, 10)):
            expected = brute_force_flags(view.symbols, view.spaced, keys, fold)
            assert matcher.features(view.symbols, view.spaced, fold).tolist() == expected, text
            checked += 1
    assert checked == 120


def test_jackknifed_words_are_hidden_only_in_their_own_fold():
    words = {"人民": 1 << 3, "中国": EVERY_FOLD, "中国人民": (1 << 3) | (1 << 5)}
    matcher = LexiconMatcher([words], NORMALISER)
    view = NORMALISER("中国人民")
    begins_2, begins_4 = 1 << 0, 1 << 2
    at_inference = matcher.features(view.symbols, view.spaced)
    assert at_inference[2] & begins_2 and at_inference[0] & begins_4
    in_fold_3 = matcher.features(view.symbols, view.spaced, fold=3)
    assert not in_fold_3[2] & begins_2  # seen only in fold 3
    assert in_fold_3[0] & begins_4  # also seen in fold 5
    assert in_fold_3[0] & begins_2  # every fold


def test_words_are_matched_in_the_models_view():
    # Full-width letters and digits, number runs: the text and the word are normalised alike.
    matcher = LexiconMatcher([{"2005年": EVERY_FOLD, "ＡＢＣ公司": EVERY_FOLD}], NORMALISER)
    view = NORMALISER("他在１９９８年加入abc公司")
    flags = matcher.features(view.symbols, view.spaced)
    assert view.symbols == "他在0年加入X公司"
    assert flags.tolist() == [0, 0, 1 << 0, 1 << 4, 0, 0, 1 << 1, 1 << 9, 1 << 5]


def test_an_empty_lexicon_gives_no_flags():
    matcher = LexiconMatcher([{}], NORMALISER)
    view = NORMALISER("中国人民")
    assert not matcher.features(view.symbols, view.spaced).any()
    with pytest.raises(ValueError, match="At most 4 lexicon channels"):
        LexiconMatcher([{}] * 5, NORMALISER)


def test_a_batch_read_a_few_matches_at_a_time_equals_brute_force(ctb6_sentences, monkeypatch):
    """Matches are turned into flags MATCH_BLOCK at a time (bounded memory);
    blocks that end mid-text and mid-batch change nothing."""
    rng = random.Random(1)
    training = jackknifed_words(ctb6_sentences[:500])
    matcher = LexiconMatcher([training], NORMALISER)
    keys = normalised_masks([training])
    texts = ["".join(words) for words in rng.sample(ctb6_sentences[:500], 10)]
    views = [NORMALISER(text) for text in texts]
    folds = [text_fold(text, 10) for text in texts]
    monkeypatch.setattr(match_features, "MATCH_BLOCK", 7)
    batch = matcher.batch_features([v.symbols for v in views], [v.spaced for v in views], folds)
    for view, fold, flags in zip(views, folds, batch):
        assert flags.tolist() == brute_force_flags(view.symbols, view.spaced, keys, fold)


def test_the_flags_of_a_range_equal_the_whole_texts(ctb6_sentences):
    """A window of a long text (``ranges``) gets the flags the whole text gives
    its units: matches that reach into the window from outside count."""
    rng = random.Random(2)
    jieba_words = {word: EVERY_FOLD for word in jieba_lexicon()}
    matcher = LexiconMatcher([jackknifed_words(ctb6_sentences[:500]), jieba_words], NORMALISER)
    assert matcher.max_key_length > 5
    text = "".join(word + (" " if rng.random() < 0.05 else "") for words in ctb6_sentences[:60] for word in words)
    view = NORMALISER(text)
    whole = matcher.features(view.symbols, view.spaced)
    ranges = [(0, 0), (0, len(view)), (1, 2)] + [tuple(sorted(rng.sample(range(len(view) + 1), 2))) for _ in range(30)]
    windows = matcher.batch_features([view.symbols] * len(ranges), [view.spaced] * len(ranges), None, ranges)
    for (start, end), flags in zip(ranges, windows):
        assert flags.tolist() == whole[start:end].tolist(), (start, end)
    # Without the context, a word cut by the window's edge would be lost.
    cut = [
        (start, end)
        for start, end in ranges
        if (whole[start:end] != matcher.features(view.symbols[start:end], view.spaced[start:end])).any()
    ]
    assert cut
