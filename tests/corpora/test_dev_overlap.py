"""Taking a dev set's sentences out of the training text it was drawn from (pku_pfr)."""
import dataclasses

import pytest

from spacy_cws.corpora.catalog import PFR_HELD_OUT_DAYS, get_corpus
from spacy_cws.corpora.dev_overlap import LONG_PIECE, dev_sentences, remove_dev_sentences, write_found
from spacy_cws.corpora.formats import SegmentedSentence, read_segmented
from spacy_cws.corpora.held_out_days import held_out_lines
from spacy_cws.corpora.sentences import split_sentences
from spacy_cws.corpora.training_text import TrainingText
from spacy_cws.scoring.sighan import score_files

LONG = "我们 要 高举 邓小平理论 伟大 旗帜 ， 以 党 的 十五大 精神 为 指导 ，"  # a piece of 27 characters
# The dev file's pieces, as the SIGHAN PKU sample cuts them: at a stop, at some ，、, and a
# closing quote after a stop begins a piece; one piece keeps a PFR paragraph id.
PIECES = ["李 铁映 说 ： 『 今天 ，", "大家 好 。", "』", "19980114-01-013-003 北京市 支援 灾区 。", "图片 ：", LONG,
          "奇山 异 水 的 灵秀 ，", "是 清冽 的 夜 ，"]
TRAIN = [
    "李 铁映 说 ： 『 今天 ， 大家 好 。 』",  # a dev sentence: out, and its words kept for the comparison
    "北京市 支援 灾区 。",  # a dev sentence once the id is dropped: out
    "图片 ：",
    "图片 ：",  # twice in the training text: both out
    "江 泽民 指出 ： “ " + LONG + " 统揽 全局 。 ”",  # holds the long dev piece: out
    "我 说 大家 好 。",  # holds only a short dev piece: kept
    "今天 天气 好 。",  # kept
    "奇山 异 水 的 灵秀 ，",  # a line of a poem, a paragraph in PFR and a piece in the sample: out
]


def _sentences(lines):
    return [SegmentedSentence(n, line.split()) for n, line in enumerate(lines, 1)]


def test_dev_pieces_joined_and_cut_as_the_training_text():
    assert ["".join(words) for words in dev_sentences(_sentences(PIECES))] == [
        "李铁映说：『今天，大家好。』",
        "北京市支援灾区。",
        "图片：",
        LONG.replace(" ", "") + "奇山异水的灵秀，是清冽的夜，",  # pieces after a ，are joined
    ]


def test_remove_dev_sentences():
    assert len(LONG.replace(" ", "")) >= LONG_PIECE
    train = [SegmentedSentence(n, words) for n, line in enumerate(TRAIN, 1) for words in split_sentences(line.split())]
    kept, overlap = remove_dev_sentences(train, _sentences(PIECES))
    assert [" ".join(s.words) for s in kept] == ["我 说 大家 好 。", "今天 天气 好 。"]
    assert (overlap.dev_sentences, overlap.found, overlap.removed, overlap.holding) == (4, 3, 5, 1)
    assert overlap.found_chars == 14 + 8 + 3 and overlap.dev_chars == overlap.found_chars + 27 + 14
    assert overlap.pairs[1] == (["北京市", "支援", "灾区", "。"], ["北京市", "支援", "灾区", "。"])


def test_write_found_aligns_dev_and_training_words(tmp_path):
    pieces = _sentences(["提 出 了 。"])
    _, overlap = remove_dev_sentences(_sentences(["提出 了 。"]), pieces)
    gold, train = write_found(overlap, tmp_path)
    assert gold.read_text(encoding="utf-8") == "提 出 了 。\n"
    assert train.read_text(encoding="utf-8") == "提出 了 。\n"


@pytest.fixture(scope="module")
def pfr_training_text(shared_data):
    """PFR January 1998 and the folds' February as pku_pfr's training text, and what was done to it (about 20 s)."""
    files = get_corpus("pku_pfr")
    text = TrainingText.for_corpus(files, shared_data)
    paragraphs = list(read_segmented(files.path(shared_data, "train"), files.format))
    return paragraphs, text(paragraphs), text


def test_real_pfr_keeps_no_dev_sentence_and_no_long_dev_piece(shared_data, pfr_training_text):
    _, train, text = pfr_training_text
    train_texts = {"".join(s.words) for s in train}
    dev_file = list(read_segmented(shared_data / "sighan2005_train_samples/pku_dev.txt", "bies"))
    pieces = ["".join(s.words) for s in dev_file]
    dev = ["".join(words) for words in dev_sentences(dev_file)]
    assert not train_texts.intersection(dev)
    assert not train_texts.intersection(pieces)  # a poem's lines: PFR paragraphs, SIGHAN pieces
    everything = "\n".join(train_texts)
    assert [p for p in pieces if len(p) >= LONG_PIECE and p in everything] == []
    # The sample's text is found almost whole, in training or on the held-out days (the rest was revised by SIGHAN).
    paragraphs = pfr_training_text[0]
    held_lines = held_out_lines(get_corpus("pku_pfr").path(shared_data, "train"), PFR_HELD_OUT_DAYS)
    held_text = "\n".join("".join(p.words) for p in paragraphs if p.line_no in held_lines)
    held_chars = sum(len(sentence) for sentence in dev if sentence in held_text)
    assert held_chars > 0
    assert (text.overlap.found_chars + held_chars) / text.overlap.dev_chars > 0.99
    assert text.overlap.dev_sentences == len(dev)


def test_real_pfr_shares_no_line_with_the_pku_test(shared_data, pfr_training_text):
    _, train, _ = pfr_training_text
    everything = "\n".join("".join(s.words) for s in train)
    test = ["".join(s.words) for s in read_segmented(shared_data / "sighan2005/pku/test_gold.utf8")]
    long_lines = [line for line in test if len(line) >= 15]
    assert len(long_lines) == 1522  # MANIFEST.md
    assert [line for line in long_lines if line in everything] == []


def test_real_pfr_training_text_is_pfr_and_february_less_whole_sentences(shared_data, pfr_training_text):
    paragraphs, train, text = pfr_training_text
    assert text.lines == len(paragraphs) and text.sentences > text.lines
    assert text.split_words > 0
    assert text.sentences - len(train) == text.overlap.removed + text.overlap.holding
    # Each kept sentence is in January's text, whole and in order, then in the folds' February paragraphs.
    pfr_text = "".join(word for paragraph in paragraphs for word in paragraph.words)
    position = 0
    for n_january, sentence in enumerate(train):
        position = pfr_text.find("".join(sentence.words), position)
        if position < 0:
            break
        position += len("".join(sentence.words))
    folds_text = "".join(
        word for path in text.files.more_train for line in read_segmented(shared_data / path) for word in line.words
    ).replace("[", "").replace("]", "")
    february = train[n_january:]
    assert 17_000 < text.more < 18_400  # February's ~18.4k paragraphs (MANIFEST.md), less the ones January shares
    assert sum(len(s.words) for s in february) > 1_000_000  # ~1.1M words
    assert all("".join(s.words) in folds_text for s in february[:: len(february) // 200])


def test_real_pfr_folds_bring_back_no_held_out_day(shared_data, pfr_training_text):
    """The folds hold a revised edition of the held-out days (29-31 January): it stays out of the training
    text. A held-out sentence comes back only where a February article quotes it (a few in a thousand)."""
    paragraphs, train, text = pfr_training_text
    held_lines = held_out_lines(get_corpus("pku_pfr").path(shared_data, "train"), PFR_HELD_OUT_DAYS)
    held = [s for p in paragraphs if p.line_no in held_lines for s in split_sentences(p.words)]
    long_held = {"".join(words) for words in held if len("".join(words)) >= 20}
    folds_text = "\n".join(
        "".join(line.words).replace("[", "").replace("]", "")
        for path in text.files.more_train
        for line in read_segmented(shared_data / path)
    )
    in_folds = [sentence for sentence in long_held if sentence in folds_text]
    assert len(in_folds) > 0.9 * len(long_held) > 1_000
    back = long_held.intersection("".join(s.words) for s in train)
    assert len(back) < 0.005 * len(in_folds)


def test_real_split_rule_brings_pfr_closer_to_the_sighan_pku_dev_gold(shared_data, pfr_training_text, tmp_path):
    """PFR's words for the dev sentences, scored against the sample's gold
    (the official scorer): splitting the unlisted words raises F1."""
    paragraphs, _, split = pfr_training_text
    files = dataclasses.replace(get_corpus("pku_pfr"), split_unlisted=False)
    unsplit = TrainingText.for_corpus(files, shared_data)
    unsplit(paragraphs)
    assert split.overlap.found == unsplit.overlap.found
    word_list = shared_data / "sighan2005/pku/training_words.utf8"
    scores = []
    for name, text in (("unsplit", unsplit), ("split", split)):
        (tmp_path / name).mkdir()
        scores.append(score_files(*write_found(text.overlap, tmp_path / name), word_list))
    assert scores[0].true_words == scores[1].true_words  # the same gold
    assert scores[1].f1 > scores[0].f1
    assert scores[1].recall > scores[0].recall
