"""The shipped pipelines keep names of every script, times, fractions,
hyphenated and apostrophe words and mentions whole (issue 39's inputs),
through nlp.pipe and through ``segment``."""
import subprocess
import sys

import pytest

from ..conftest import shipped_pipeline

SHIPPED = ["zh_cws_gd", "zh_cws_gd_sm"]
# Each sentence with the words it must hold as tokens.
CASES = [
    ("我喜欢Pokémon游戏", ["Pokémon"]),
    ("Müller先生住在Straße旁的café", ["Müller", "Straße", "café"]),
    ("这家cafe\u0301很naïve", ["cafe\u0301", "naïve"]),
    ("她从Montréal和Łódź飞到İstanbul", ["Montréal", "Łódź", "İstanbul"]),
    ("请把ﬁle发给我", ["ﬁle"]),
    ("普京在Москва讲话", ["Москва"]),
    ("韩国人说안녕하세요", ["안녕하세요"]),
    ("希腊的名字是Ελλάδα", ["Ελλάδα"]),
    ("开罗的阿拉伯文是القاهرة", ["القاهرة"]),
    ("耶路撒冷写作ירושלים", ["ירושלים"]),
    ("曼谷的泰文是กรุงเทพ", ["กรุงเทพ"]),
    ("印地语问候नमस्ते朋友", ["नमस्ते"]),
    ("日本动画ひらがな和カタカナー", ["ひらがな", "カタカナー"]),
    ("亚美尼亚首都Երևան和格鲁吉亚首都თბილისი", ["Երևան", "თბილისი"]),
    ("会议12:30开始，完成了3/4", ["12:30", "3/4"]),
    ("这是state-of-the-art的方法，I can't wait", ["state-of-the-art", "can't"]),
    ("@张三 你好", ["@张三"]),
    ("世\x1b界", ["世", "\x1b", "界"]),
    ("波斯语的我想要是می\u200cخواهم", ["می\u200cخواهم"]),
    ("德语Zwei\xadsilben有两个音节", ["Zwei\xadsilben"]),
    ("看a\u200cb和x\u200dy", ["a\u200cb", "x\u200dy"]),
    ("国旗🇨🇳🇺🇸", ["国旗", "🇨🇳", "🇺🇸"]),
    ("我学C++和C#还有F#语言", ["C++", "C#", "F#"]),
    ("邮箱ＡＢＣ１２３．４５＠ｅｘａｍｐｌｅ．ｃｏｍ", ["ＡＢＣ１２３．４５＠ｅｘａｍｐｌｅ．ｃｏｍ"]),
]


@pytest.fixture(scope="module", params=SHIPPED)
def shipped(request):
    return request.param, shipped_pipeline(request.param)


def test_words_are_whole_through_pipe(shipped):
    _, nlp = shipped
    for (text, words), doc in zip(CASES, nlp.pipe([text for text, _ in CASES])):
        tokens = [token.text for token in doc]
        assert all(word in tokens for word in words), (text, tokens)


def test_words_are_whole_through_segment(shipped):
    name, _ = shipped
    lines = [text for text, _ in CASES]
    result = subprocess.run(
        [sys.executable, "-m", "spacy_cws", "segment", "--model", name],
        input="\n".join(lines) + "\n", capture_output=True, text=True, encoding="utf-8", check=True,
    )
    for (text, words), line in zip(CASES, result.stdout.split("\n")):
        tokens = line.split(" ")
        assert all(word in tokens for word in words), (text, tokens)
