"""Paragraphs of People's Daily 1998 (PFR, ../shared/data/pku_pfr1998/199801.txt)
as it is written: GBK, CRLF, a stray CR, blank lines between articles, compound
names in [...]nt. Days: 19980101 (train), 19980126 (dev), 19980129 and
19980131 (test)."""
from pathlib import Path

LINES = [
    "19980101-01-001-005/m  同胞/n  们/k  、/w  朋友/n  们/k  、/w  女士/n  们/k  、/w  先生/n  们/k  ：/w  ",
    "19980101-02-005-001/m  [国务院/nt  侨办/j]nt  发表/v  新年/t  贺词/n  ",
    "",
    "19980126-01-010-001/m  王/nr  怀远/nr  当选/v  [辽宁省/ns  人大/j  常委会/j]nt  主任/n  张/nr  国光/nr  当选/v  "
    "辽宁省/ns  省长/n  ",
    "",
    "19980129-02-005-002/m  [中国/ns  扶贫/vn  基金会/n]nt  呼吁/v  全/a  社会/n  "
    "继续/v  关注/v  支持/v  扶贫/vn  事业/n  \r",
    "19980131-01-001-023/m  （/w  Ａ/nx  、/w  Ｂ/nx  ）/w  ",
]
# The gold (word, tag) pairs of the paragraph on line 2 and the split of each paragraph line.
COMPOUND_LINE = 2
COMPOUND_WORDS = [("国务院", "nt"), ("侨办", "j"), ("发表", "v"), ("新年", "t"), ("贺词", "n")]
DEV_DAYS = ["19980126"]
TEST_DAYS = ["19980129", "19980131"]
SPLIT_WORDS = {"train": 17, "dev": 12, "test": 16}


def write_sample(folder: Path, lines=LINES, name: str = "199801.txt") -> Path:
    """Write ``lines`` as PFR writes them (GBK, CRLF) to folder/name. RETURNS the path."""
    path = folder / name
    path.write_bytes("".join(line + "\r\n" for line in lines).encode("gbk"))
    return path
