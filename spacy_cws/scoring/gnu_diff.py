"""GNU diff's alignment of two lists of lines, and the lines ``diff -y`` prints for it.

The official SIGHAN Bakeoff scorer (icwb2 ``score``, ported in sighan.py)
writes the words of a gold and a system line one per line to two files, runs
``/usr/bin/diff -y`` on them and counts the printed lines with regular
expressions. Which words are "common" is GNU diff's choice, not any longest
common subsequence: ``discard_confusing_lines`` drops words with many
matches inside runs of unmatched words, and which gold words are matched
also decides OOV/IV recall. Parity with the official scores therefore needs
the same alignment, so this is a port of GNU diffutils 3.8 rather than an
LCS: its line matching (identical prefix/suffix trimming,
``discard_confusing_lines``, Myers' O(ND) ``diag`` / ``compareseq``
bisection and ``shift_boundaries``), and a model of the side-by-side lines
``diff -y`` prints (default width 130, UTF-8 locale). No process is spawned.
"""
from __future__ import annotations

import unicodedata
from typing import Iterator, Optional

# diff -y with the default width 130 and tab size 8: a half line holds 61
# columns, the gutter mark sits at column 62 and the right column starts at 64.
HALF_WIDTH = 61

SideBySideLine = tuple[Optional[bytes], bytes, Optional[bytes]]


# --- diff -y output model -------------------------------------------------


def segments(a: list[bytes], b: list[bytes]) -> Iterator[tuple[int, int, int, int, bool]]:
    """Yield (i, i_end, j, j_end, common) spans of ``a`` and ``b`` in order:
    one common line of ``diff a b`` (common=True), or one hunk of changed lines."""
    changed0, changed1 = _diff_changed(a, b)
    i = j = 0
    n0, n1 = len(a), len(b)
    while i < n0 or j < n1:
        if not (changed0[i] or changed1[j]):
            yield i, i + 1, j, j + 1, True
            i += 1
            j += 1
            continue
        i_end, j_end = i, j
        while i_end < n0 and changed0[i_end]:
            i_end += 1
        while j_end < n1 and changed1[j_end]:
            j_end += 1
        yield i, i_end, j, j_end, False
        i, j = i_end, j_end


def side_by_side(a: list[bytes], b: list[bytes]) -> Iterator[SideBySideLine]:
    """Yield (left, mark, right) for each line ``diff -y`` prints; mark is
    b" " for a common line, else b"|", b">" or b"<" (hunk order as in
    GNU diff's print_sdiff_hunk); left/right are None where a side is blank."""
    for i, i_end, j, j_end, common in segments(a, b):
        if common:
            yield a[i], b" ", b[j]
            continue
        paired = min(i_end - i, j_end - j)
        for k in range(paired):
            yield a[i + k], b"|", b[j + k]
        for k in range(j + paired, j_end):
            yield None, b">", b[k]
        for k in range(i + paired, i_end):
            yield a[k], b"<", None


def printed(word: bytes) -> tuple[bytes, int]:
    """The part of ``word`` that ``diff -y`` prints in a 61-column half line,
    and the column where it ends (GNU diff 3.8 print_half_line in a UTF-8
    locale: invalid bytes and control characters take no column)."""
    if len(word) < HALF_WIDTH:  # every display column takes at least one byte
        return word, 0
    out, position, column, i = bytearray(), 0, 0, 0
    while i < len(word):
        size = _utf8_size(word, i)
        if size:
            width = _wcwidth(word[i : i + size].decode("utf-8"))
            position += max(width, 0)
            if position <= HALF_WIDTH:
                out += word[i : i + size]
                column = position
        else:  # diff's fallback for bytes mbrtowc rejects tests "<", not "<="
            size = 1
            if position < HALF_WIDTH:
                out += word[i : i + 1]
        i += size
    return bytes(out), column


def _utf8_size(data: bytes, i: int) -> int:
    """Length of the valid UTF-8 character at ``data[i]``, 0 if invalid."""
    lead = data[i]
    if lead < 0x80:
        return 1
    if not 0xC2 <= lead < 0xF5:
        return 0
    size = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    try:
        data[i : i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return size


def _wcwidth(char: str) -> int:
    """glibc's wcwidth for one character, approximated from Unicode data."""
    code = ord(char)
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Cn"):
        return -1
    if code == 0xAD:
        return 1
    if category in ("Mn", "Me", "Cf") or 0x1160 <= code < 0x1200:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


# --- GNU diffutils 3.8 line matching (src/analyze.c, io.c, gnulib diffseq.h) ---


def _diff_changed(a: list[bytes], b: list[bytes]) -> tuple[bytearray, bytearray]:
    """Per-line "changed" flags of ``diff a b``; each has a trailing 0 sentinel."""
    n0, n1 = len(a), len(b)
    # io.c find_identical_ends: the identical prefix and suffix lines are
    # matched up front and never take part in the comparison below.
    prefix = 0
    while prefix < n0 and prefix < n1 and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(n0, n1) - prefix and a[n0 - 1 - suffix] == b[n1 - 1 - suffix]:
        suffix += 1
    classes: dict[bytes, int] = {}
    x = [classes.setdefault(w, len(classes) + 1) for w in a[prefix : n0 - suffix]]
    y = [classes.setdefault(w, len(classes) + 1) for w in b[prefix : n1 - suffix]]
    middle0, middle1 = _analyze(x, y)
    changed0 = bytearray(prefix) + middle0[1:-1] + bytearray(suffix + 1)
    changed1 = bytearray(prefix) + middle1[1:-1] + bytearray(suffix + 1)
    return changed0, changed1


def _analyze(x: list[int], y: list[int]) -> tuple[bytearray, bytearray]:
    """analyze.c diff_2_files on equivalence-class vectors. Returns changed
    flags with a 0 sentinel at both ends (index 1 is line 0), as in C."""
    equivs = (x, y)
    changed = (bytearray(len(x) + 2), bytearray(len(y) + 2))
    kept = [_discard_confusing_lines(equivs[f], equivs[1 - f], changed[f]) for f in (0, 1)]
    xv = [x[i] for i in kept[0]]
    yv = [y[i] for i in kept[1]]
    for xi, yi in _compareseq(xv, yv):
        if xi is not None:
            changed[0][kept[0][xi] + 1] = 1
        else:
            changed[1][kept[1][yi] + 1] = 1
    _shift_boundaries(x, changed[0], changed[1])
    _shift_boundaries(y, changed[1], changed[0])
    return changed


def _discard_confusing_lines(
    equivs: list[int], other: list[int], changed: bytearray
) -> list[int]:
    """analyze.c discard_confusing_lines for one file: mark lines with no match
    in the other file (and some with very many) as changed up front; return
    the indices of the lines kept for the comparison."""
    counts: dict[int, int] = {}
    for e in other:
        counts[e] = counts.get(e, 0) + 1
    end = len(equivs)
    # diffutils 3.8's threshold (5 below 256 lines), checked against /usr/bin/diff.
    many = 5
    tem = end >> 6
    while (tem := tem >> 2) > 0:
        many *= 2
    discards = bytearray(end)
    for i, e in enumerate(equivs):
        nmatch = counts.get(e, 0)
        if nmatch == 0:
            discards[i] = 1
        elif nmatch > many:
            discards[i] = 2

    # Keep provisional discards (2) only inside runs of discardable lines
    # that start and end with definite ones (1). Verbatim port of the C loop.
    i = 0
    while i < end:
        if discards[i] == 2:
            discards[i] = 0
        elif discards[i]:
            provisional = 0
            j = i
            while j < end and discards[j]:
                provisional += discards[j] == 2
                j += 1
            while j > i and discards[j - 1] == 2:
                j -= 1
                discards[j] = 0
                provisional -= 1
            length = j - i
            if provisional * 4 > length:
                for k in range(i, j):
                    if discards[k] == 2:
                        discards[k] = 0
            else:
                minimum = 1
                tem = length >> 2
                while (tem := tem >> 2) > 0:
                    minimum <<= 1
                minimum += 1
                consec = 0
                j = 0
                while j < length:
                    if discards[i + j] != 2:
                        consec = 0
                    else:
                        consec += 1
                        if minimum == consec:
                            j -= consec  # back up to cancel the whole subrun
                        elif minimum < consec:
                            discards[i + j] = 0
                    j += 1
                for step in (1, -1):
                    if step == -1:
                        i += length - 1
                    consec = 0
                    for j in range(length):
                        k = i + step * j
                        if j >= 8 and discards[k] == 1:
                            break
                        if discards[k] == 2:
                            consec = 0
                            discards[k] = 0
                        elif discards[k] == 0:
                            consec = 0
                        else:
                            consec += 1
                        if consec == 3:
                            break
        i += 1

    kept = []
    for i in range(end):
        if discards[i]:
            changed[i + 1] = 1
        else:
            kept.append(i)
    return kept


def _compareseq(xv: list[int], yv: list[int]) -> Iterator[tuple[Optional[int], Optional[int]]]:
    """diffseq.h compareseq without heuristics: yield (x, None) for deleted and
    (None, y) for inserted elements of a shortest edit script, split at the
    midpoints Myers' bidirectional search finds, as GNU diff does."""
    n0, n1 = len(xv), len(yv)
    size = n0 + n1 + 3
    fd, bd = [0] * size, [0] * size
    off = n1 + 1  # fd[d + off] holds diagonal d, d in [-n1 - 1, n0 + 1]
    stack = [(0, n0, 0, n1)]
    while stack:
        xoff, xlim, yoff, ylim = stack.pop()
        while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
            xoff += 1
            yoff += 1
        while xoff < xlim and yoff < ylim and xv[xlim - 1] == yv[ylim - 1]:
            xlim -= 1
            ylim -= 1
        if xoff == xlim:
            for k in range(yoff, ylim):
                yield None, k
        elif yoff == ylim:
            for k in range(xoff, xlim):
                yield k, None
        else:
            xmid, ymid = _diag(xv, yv, xoff, xlim, yoff, ylim, fd, bd, off)
            stack.append((xmid, xlim, ymid, ylim))
            stack.append((xoff, xmid, yoff, ymid))


def _diag(xv, yv, xoff, xlim, yoff, ylim, fd, bd, off) -> tuple[int, int]:
    """diffseq.h diag: the midpoint of a shortest edit script of the slices."""
    dmin, dmax = xoff - ylim, xlim - yoff
    fmid, bmid = xoff - yoff, xlim - ylim
    fmin = fmax = fmid
    bmin = bmax = bmid
    odd = (fmid - bmid) & 1
    fd[fmid + off] = xoff
    bd[bmid + off] = xlim
    big = xlim + ylim + 1  # stands in for OFFSET_MAX
    while True:
        if fmin > dmin:
            fmin -= 1
            fd[fmin - 1 + off] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            fd[fmax + 1 + off] = -1
        else:
            fmax -= 1
        for d in range(fmax, fmin - 1, -2):
            tlo, thi = fd[d - 1 + off], fd[d + 1 + off]
            x = thi if tlo < thi else tlo + 1
            y = x - d
            while x < xlim and y < ylim and xv[x] == yv[y]:
                x += 1
                y += 1
            fd[d + off] = x
            if odd and bmin <= d <= bmax and bd[d + off] <= x:
                return x, y
        if bmin > dmin:
            bmin -= 1
            bd[bmin - 1 + off] = big
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            bd[bmax + 1 + off] = big
        else:
            bmax -= 1
        for d in range(bmax, bmin - 1, -2):
            tlo, thi = bd[d - 1 + off], bd[d + 1 + off]
            x = tlo if tlo < thi else thi - 1
            y = x - d
            while xoff < x and yoff < y and xv[x - 1] == yv[y - 1]:
                x -= 1
                y -= 1
            bd[d + off] = x
            if not odd and fmin <= d <= fmax and x <= fd[d + off]:
                return x, y


def _shift_boundaries(equivs: list[int], changed: bytearray, other_changed: bytearray) -> None:
    """analyze.c shift_boundaries for one file: slide runs of changes over
    equal neighbours to merge them, then (if possible) to line up with a run
    of changes in the other file. ``changed`` arrays carry sentinels at both
    ends (index k + 1 is line k); the C index arithmetic is kept as is."""
    i = j = 0
    i_end = len(equivs)
    c = changed  # c[k + 1] is C's changed[k]
    o = other_changed
    while True:
        while i < i_end and not c[i + 1]:
            while o[j + 1]:
                j += 1
            j += 1
            i += 1
        if i == i_end:
            break
        start = i
        i += 1
        while c[i + 1]:
            i += 1
        while o[j + 1]:
            j += 1
        while True:
            runlength = i - start
            while start and equivs[start - 1] == equivs[i - 1]:
                start -= 1
                c[start + 1] = 1
                i -= 1
                c[i + 1] = 0
                while c[start]:
                    start -= 1
                j -= 1
                while o[j + 1]:
                    j -= 1
            corresponding = i if o[j] else i_end
            while i != i_end and equivs[start] == equivs[i]:
                c[start + 1] = 0
                start += 1
                c[i + 1] = 1
                i += 1
                while c[i + 1]:
                    i += 1
                j += 1
                while o[j + 1]:
                    corresponding = i
                    j += 1
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            c[start + 1] = 1
            i -= 1
            c[i + 1] = 0
            j -= 1
            while o[j + 1]:
                j -= 1
