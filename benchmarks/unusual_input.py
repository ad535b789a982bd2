"""Unusual input through a shipped pipeline: where words are cut, and how time grows.

    python benchmarks/unusual_input.py cuts zh_cws_gd zh_cws_gd_sm
    python benchmarks/unusual_input.py timing zh_cws_gd_sm --sizes 10000,100000,1000000

``cuts`` prints, for each sentence below, its words through ``nlp.pipe`` and
through ``python -m spacy_cws segment`` (words joined by "|"), as a Markdown
table. ``timing`` prints the seconds of ``nlp(text)`` for a text of n
characters of one symbol class (Han, ASCII letters, Latin with diacritics,
Cyrillic, digits, spaces, emoji, NUL, hex), each class in its own process
(one thread) that stops at ``--limit`` seconds; a row should grow linearly with n.
"""
import os
import subprocess
import sys
import time
from typing import List

import spacy
import typer

app = typer.Typer(add_completion=False)

# Names and tokens in Chinese sentences: alphabetic scripts (precomposed and
# combining diacritics, ligatures), joiners, times, fractions, mentions, a
# control character.
SENTENCES = [
    "我喜欢Pokémon游戏",
    "Müller先生住在Straße旁的café",
    "这家cafe\u0301很naïve",
    "她从Montréal和Łódź飞到İstanbul",
    "请把ﬁle发给我",
    "普京在Москва讲话",
    "韩国人说안녕하세요",
    "希腊的名字是Ελλάδα",
    "开罗的阿拉伯文是القاهرة",
    "耶路撒冷写作ירושלים",
    "曼谷的泰文是กรุงเทพ",
    "印地语问候नमस्ते朋友",
    "日本动画ひらがな和カタカナー",
    "亚美尼亚首都Երևան和格鲁吉亚首都თბილისი",
    "会议12:30开始，完成了3/4",
    "这是state-of-the-art的方法，I can't wait",
    "@张三 你好",
    "世\x1b界",
    # Format characters inside words, variation selectors, flags, full-width
    # forms and language names (issue 50).
    "波斯语的我想要是می\u200cخواهم",
    "德语Zwei\xadsilben有两个音节",
    "看a\u200cb和x\u200dy",
    "我\ufe0f们是中国人",
    "他\ufe0e说好",
    "中\U000E0100文",
    "中\ufe0f文",
    "国旗🇨🇳🇺🇸",
    "邮箱ＡＢＣ１２３．４５＠ｅｘａｍｐｌｅ．ｃｏｍ",
    "我学C++和C#还有F#语言",
]

SYMBOL_CLASSES = {
    "Han": "中",
    "ASCII letters": "a",
    "Latin with diacritics": "é",
    "Cyrillic": "д",
    "digits": "1",
    "spaces": " ",
    "emoji": "\U0001F600",
    "NUL": "\x00",
    "hex": "0123456789abcdef",
}


def _invisible(character: str) -> bool:
    """Controls, format characters and variation selectors."""
    selector = "\ufe00" <= character <= "\ufe0f" or "\U000e0100" <= character <= "\U000e01ef"
    return selector or not character.isprintable()


def _shown(text: str) -> str:
    """``text`` with its invisible characters escaped as Python writes them."""
    return "".join(ascii(c)[1:-1] if _invisible(c) else c for c in text)


def _joined(words: List[str]) -> str:
    return _shown("|".join(words))


def _segment_lines(pipeline: str, texts: List[str]) -> List[str]:
    result = subprocess.run(
        [sys.executable, "-m", "spacy_cws", "segment", "--model", pipeline],
        input="\n".join(texts) + "\n", capture_output=True, text=True, encoding="utf-8", check=True,
    )
    return [_joined(line.split(" ")) for line in result.stdout.split("\n")[: len(texts)]]


@app.command()
def cuts(pipelines: List[str]):
    """A Markdown table of each sentence's words per pipeline and path."""
    print("| sentence | pipeline | nlp.pipe | segment |\n|---|---|---|---|")
    for pipeline in pipelines:
        nlp = spacy.load(pipeline)
        through_pipe = [_joined([t.text for t in doc]) for doc in nlp.pipe(SENTENCES)]
        through_segment = _segment_lines(pipeline, SENTENCES)
        for sentence, piped, segmented in zip(SENTENCES, through_pipe, through_segment):
            print(f"| {_shown(sentence)} | {pipeline} | {piped} | {'same' if segmented == piped else segmented} |")


@app.command()
def timing(
    pipeline: str,
    sizes: str = typer.Option("10000,100000,1000000", help="Text lengths in characters, ascending."),
    limit: float = typer.Option(300.0, help="Seconds per symbol class before its process is stopped."),
):
    """A Markdown table: seconds of nlp(text) per symbol class and length."""
    lengths = [int(size) for size in sizes.split(",")]
    print(f"| {pipeline} | " + " | ".join(f"n = {n:,}" for n in lengths) + " |")
    print("|---|" + "---|" * len(lengths))
    for name, unit in SYMBOL_CLASSES.items():
        seconds = _class_seconds(pipeline, unit, lengths, limit)
        cells = [f"{s:.2f}" if s is not None else f"> {limit:.0f} (stopped)" for s in seconds]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def _class_seconds(pipeline: str, unit: str, lengths: List[int], limit: float) -> List[float]:
    """Seconds per length, None for those the limit cut off (one process, one load)."""
    # One thread, as the other speed figures: OpenMP threads spin and stall
    # when another process shares the cores.
    process = subprocess.Popen(
        [sys.executable, __file__, "time-one", pipeline, repr(unit), ",".join(map(str, lengths))],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    try:
        process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        process.kill()
    seconds: List[float] = [float(line) for line in process.stdout.read().split()]
    return seconds + [None] * (len(lengths) - len(seconds))


@app.command("time-one", hidden=True)
def time_one(pipeline: str, unit: str, sizes: str):
    """Seconds of nlp(text) for each size, one line each (the worker of ``timing``)."""
    import ast

    character = ast.literal_eval(unit)
    nlp = spacy.load(pipeline)
    nlp("预热")
    for n in map(int, sizes.split(",")):
        text = (character * (n // len(character) + 1))[:n]
        started = time.perf_counter()
        doc = nlp(text)
        elapsed = time.perf_counter() - started
        assert doc.text == text
        print(f"{elapsed:.4f}", flush=True)


if __name__ == "__main__":
    app()
