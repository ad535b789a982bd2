"""Hand-segmented sentences and a tiny model config shared by the tests."""
import re

import spacy
from spacy.tokens import Doc
from spacy.training import Example


# Realistic news-style sentences, segmented by hand in the CTB style.
SENTENCES = [
    "新华社 北京 二月 十二日 电",
    "这些 城市 去年 完成 国内 生产 总值 一百九十多亿 元 。",
    "国务院 批准 了 十四 个 边境 城市 为 对外 开放 城市 。",
    "他 在 2009年 买 了 一 部 iPhone 手机 ， 售价 5999 元 。",
    "今天 天气 很 好 ， 我们 去 公园 散步 吧 ！",
    "中国 经济 保持 平稳 增长 ， 增幅 达到 ３．５％ 。",
    "上海 浦东 开发 与 法制 建设 同步",
    "记者 从 有关 部门 了解 到 这 一 消息",
]
MODEL = {"width": 32, "depth": 2, "n_heads": 4, "ff_width": 64, "dropout": 0.0}


def blank_pipeline():
    return spacy.blank("zh", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.CharPretokenizer.v1"}}})


def make_examples(nlp, sentences=SENTENCES, criterion=None):
    """Examples of the space-separated sentences; each reference Doc's
    doc._.cws_criterion is ``criterion``, as conversion stores a corpus name."""
    examples = []
    for sentence in sentences:
        words = sentence.split()
        reference = Doc(nlp.vocab, words=words, spaces=[False] * len(words))
        reference._.cws_criterion = criterion
        examples.append(Example(nlp.make_doc(reference.text), reference))
    return examples


# Two standards for the same sentences: "coarse" keeps the hand segmentation,
# "fine" splits every Chinese word into characters (number and Latin runs are
# one model unit, so they stay whole).
COARSE = SENTENCES
FINE = [
    " ".join(" ".join(word) if re.fullmatch("[\u4e00-\u9fff]+", word) else word for word in sentence.split())
    for sentence in SENTENCES
]
TEXTS = ["".join(sentence.split()) for sentence in SENTENCES]


def criterion_pipeline(criterion="coarse"):
    """A blank multi-criteria segmenter pipeline with default criterion ``criterion``."""
    nlp = blank_pipeline()
    nlp.add_pipe("gd_segmenter", config={"model": MODEL, "max_length": 64, "batch_units": 256, "criterion": criterion})
    nlp.config["initialize"]["components"]["gd_segmenter"] = {"multi_criteria": True}
    return nlp


def criterion_words(nlp, texts, criterion=None):
    """Per text its words, segmented under ``criterion`` (None: the default)."""
    docs = [nlp.make_doc(text) for text in texts]
    for doc in docs:
        doc._.cws_criterion = criterion
    return [[t.text for t in doc] for doc in nlp.pipe(docs)]


def overfit(nlp, examples, updates, max_loss):
    """Initialize ``nlp`` on ``examples`` and update on them ``updates`` times;
    the segmenter's last loss must fall below ``max_loss``."""
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.003
    for _ in range(updates):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["gd_segmenter"] < max_loss, losses
    return nlp
