"""Sentences and tiny settings shared by the MWA tests.

NER_SENTENCES are the first short sentences with entities of the Resume NER
dev set (../shared/data/ner/resume/dev.char.bmes; Zhang & Yang 2018), with
their BMES tags turned into character spans.
"""
import spacy
from spacy.training import Example

NER_SENTENCES = [
    ("历任公司副总经理、总工程师，", [(2, 4, "ORG"), (4, 8, "TITLE"), (9, 13, "TITLE")]),
    ("2009年5月至今，受聘为公司首席资深技术顾问；", [(13, 15, "ORG"), (15, 23, "TITLE")]),
    ("2013年4月至今任云南罗平锌电股份有限公司董事。", [(10, 22, "ORG"), (22, 24, "TITLE")]),
    ("1984年至1986年，在国营135工厂工作；", [(13, 20, "ORG")]),
]
# Mixed scripts, digits, full-width forms and whitespace of every kind.
MIXED_TEXTS = [
    "他在 2009年买了一部iPhone  手机，售价５９９９元。",
    "  这间酒店环境和服务态度亦算不错,但房间空间太小~~\n中餐廳的廣東點心不太好吃 ",
    "<荐书> 推荐所有喜欢<红楼>的红迷们一定要收藏这本书!",
    "吴重阳，中国国籍，大学本科，教授级高工，享受国务院特殊津贴。",
]
ENCODER = {
    "@architectures": "spacy-cws.MWACharEncoder.v1",
    "width": 32,
    "depth": 1,
    "n_heads": 4,
    "ff_width": 64,
    "n_rows": 2000,
    "max_length": 64,
    "dropout": 0.0,
}
ENRICHER = {"width": 32, "n_heads": 4, "dropout": 0.0, "max_length": 64, "encoder": ENCODER}
NER_MODEL = {
    "@architectures": "spacy.TransitionBasedParser.v2",
    "state_type": "ner",
    "extra_state_tokens": False,
    "hidden_width": 32,
    "maxout_pieces": 2,
    "use_upper": True,
    "tok2vec": {"@architectures": "spacy-cws.MWAListener.v1", "width": 32},
}


def char_pipeline():
    """A blank Chinese pipeline whose tokens are single characters (entities always align)."""
    return spacy.blank("zh", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-cws.CharPretokenizer.v1"}}})


def ner_examples(nlp):
    examples = []
    for text, spans in NER_SENTENCES:
        examples.append(Example.from_dict(nlp.make_doc(text), {"entities": spans}))
    return examples
