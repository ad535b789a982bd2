"""Put a corpus's files under an assets folder, in the catalog layout, verified.

Each file the catalog names for a corpus comes from the first of:

1. the destination itself, when it is already there and passes its checks
   (so reruns, e.g. by weasel, do nothing);
2. a local folder (``--local``, e.g. ../shared/data) holding it at the same
   relative path;
3. its public origin: a raw GitHub file at a pinned commit (MANIFEST.md), or,
   for the SIGHAN 2005 training sets, the official icwb2-data.zip.

Files with a known md5 (CHECKSUMS.md5) are checked against it. The zip has no
published checksum, so SIGHAN 2005 files are also checked against the
bakeoff's published word counts. A file is written to ``NAME.part`` and only
moved into place once it passes, so a failed fetch never leaves a bad file.
"""
import hashlib
import shutil
import urllib.request
import zipfile
from dataclasses import dataclass
from functools import partial
from http.client import HTTPException
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from tqdm import tqdm

from .catalog import get_corpus
from .formats import read_segmented

# download(url, dest) writes the body at url to dest; raises OSError (e.g.
# urllib's URLError) when it cannot. Injectable so tests need no network.
Download = Callable[[str, Path], None]

# The CorpusFiles fields that hold file paths, in the order they are fetched.
FILE_FIELDS = ("train", "dev", "test_raw", "test_gold", "train_words")

ICWB2_URL = "http://sighan.cs.uchicago.edu/bakeoff2005/data/icwb2-data.zip"
ICWB2_ZIP = "icwb2-data.zip"  # kept in the assets folder: all four corpora use it
ICWB2_MEMBERS = {
    f"sighan2005/{name}/training.utf8": f"icwb2-data/training/{name}_training.utf8"
    for name in ("pku", "msr", "as", "cityu")
}

TIMEOUT_S = 60  # per blocking network operation, not for the whole download
BIG_DOWNLOAD = 1 << 20  # bytes; smaller downloads get no progress bar


def _raw_github(repo: str, commit: str) -> Callable[[str], str]:
    """path -> the raw-file URL of that path in ``repo`` at ``commit``."""
    return lambda path: f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"


_ICWB2 = _raw_github("yuikns/icwb2-data", "873a51fa6234c644126d2f2c5c603a97809d2e49")
_MCCWS = _raw_github("hankcs/multi-criteria-cws", "24be488d88617b1e226db745e23268c9a79bfc54")


class Known(NamedTuple):
    md5: str
    url: str


# The catalog's files listed in ../shared/data/CHECKSUMS.md5, with their public
# origins from MANIFEST.md.
KNOWN_FILES: Dict[str, Known] = {
    "ctb6/train.seg": Known("bdb85c06e5912a49bb7559b001fe5239", _MCCWS("data/other/ctb/ctb6.train.seg")),
    "ctb6/dev.seg": Known("ceb397bccdd8fcf786b0dd234a1c96d9", _MCCWS("data/other/ctb/ctb6.dev.seg")),
    "ctb6/test.seg": Known("8175f8e2030f357050430ceecbfe215f", _MCCWS("data/other/ctb/ctb6.test.seg")),
    "sighan2008_sxu/train.txt": Known("9068ee443e190e5d48312cb5ef4d1bc4", _MCCWS("data/other/sxu/train.txt")),
    "sighan2008_sxu/test.txt": Known("df6c491fffeeb91d000c7189cac7a4b7", _MCCWS("data/other/sxu/test.txt")),
    "zx/train.zhuxian.wordpos": Known(
        "464f68f5a3902408935514a4dceff90a", _MCCWS("data/other/zx/train.zhuxian.wordpos")
    ),
    "zx/dev.zhuxian.wordpos": Known("e12edd3baed3f3b47a4312f7498c2e1c", _MCCWS("data/other/zx/dev.zhuxian.wordpos")),
    "zx/test.zhuxian.wordpos": Known("0b5e7bde0ccd2327b4f189dbe6df8bdd", _MCCWS("data/other/zx/test.zhuxian.wordpos")),
    "sighan2005/pku/test.utf8": Known("fdf9780a29918d5168d51d6965a10838", _ICWB2("testing/pku_test.utf8")),
    "sighan2005/pku/test_gold.utf8": Known("7375c40411bbfa6f10f1873dd204b47a", _ICWB2("gold/pku_test_gold.utf8")),
    "sighan2005/pku/training_words.utf8": Known(
        "119390cacc8b6aee0be2d55832939b5a", _ICWB2("gold/pku_training_words.utf8")
    ),
    "sighan2005/msr/test.utf8": Known("d27f79f17c698d78778bc11090daf076", _ICWB2("testing/msr_test.utf8")),
    "sighan2005/msr/test_gold.utf8": Known("658ac25c84dbf39b7d70c88f04906ed5", _ICWB2("gold/msr_test_gold.utf8")),
    "sighan2005/msr/training_words.utf8": Known(
        "975cc7403d91c6cc986cc686aee8f852", _ICWB2("gold/msr_training_words.utf8")
    ),
    "sighan2005/as/test.utf8": Known("bb91ad2f7d22df8be166b7b33e5133f7", _ICWB2("testing/as_test.utf8")),
    "sighan2005/as/test_gold.utf8": Known("7f621f0ecace4935c08bb183fbba0a80", _ICWB2("gold/as_testing_gold.utf8")),
    "sighan2005/as/training_words.utf8": Known(
        "f3ff6133bfccc106a5421fe5940ccefb", _ICWB2("gold/as_training_words.utf8")
    ),
    "sighan2005/cityu/test.utf8": Known("92fa103122e904b232a1b66e5af095b2", _ICWB2("testing/cityu_test.utf8")),
    "sighan2005/cityu/test_gold.utf8": Known("d7536c6c47789a9801662c458339a983", _ICWB2("gold/cityu_test_gold.utf8")),
    "sighan2005/cityu/training_words.utf8": Known(
        "ec46113af4be3552b37908e14d7af813", _ICWB2("gold/cityu_training_words.utf8")
    ),
}

# Published SIGHAN 2005 statistics: training words and word types (the
# icwb2-data README's table, Emerson 2005) and gold test words (MANIFEST.md).
# (what is counted, published count), keyed by relative path.
PUBLISHED_COUNTS: Dict[str, Tuple[str, int]] = {
    "sighan2005/pku/training.utf8": ("words", 1_109_947),
    "sighan2005/pku/training_words.utf8": ("word types", 55_303),
    "sighan2005/pku/test_gold.utf8": ("words", 104_372),
    "sighan2005/msr/training.utf8": ("words", 2_368_391),
    "sighan2005/msr/training_words.utf8": ("word types", 88_119),
    "sighan2005/msr/test_gold.utf8": ("words", 106_873),
    "sighan2005/as/training.utf8": ("words", 5_449_698),
    "sighan2005/as/training_words.utf8": ("word types", 141_340),
    "sighan2005/as/test_gold.utf8": ("words", 122_610),
    "sighan2005/cityu/training.utf8": ("words", 1_455_629),
    "sighan2005/cityu/training_words.utf8": ("word types", 69_085),
    "sighan2005/cityu/test_gold.utf8": ("words", 40_936),
}


def published_tolerance(count: int) -> int:
    """How far a measured count may be from a published one: 0.01%, rounded down.

    The organisers counted the original Big Five / CP936 files with their own
    tokenisation. On the genuine UTF-8 files whitespace splitting is off by a
    word or two: the CityU word list keeps "Phang\\u3000Nga" as one word (69,086
    whitespace tokens for 69,085 published), and the AS list has 141,338 words
    for 141,340 published types. A wrong or truncated file is off by far more.
    """
    return count // 10_000


class FetchError(Exception):
    """A file could not be put in place, or failed its checks; the message names it."""


@dataclass(frozen=True)
class FetchedFile:
    """A file in place: its path, where it came from and how it was verified.

    source: "present" (already at path), "local" (copied from --local),
    "downloaded" or "extracted" (from icwb2-data.zip). The zip itself is listed
    too when a training set was extracted from it.
    origin: the local file, URL or zip member it came from; "" when present.
    """

    path: Path
    source: str
    origin: str
    verified: str


def md5sum(path: Path) -> str:
    """The md5 hex digest of a file, read in 1 MiB chunks (the zip's members reach 36 MB)."""
    digest = hashlib.md5()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def count_words(path: Path) -> Tuple[int, int]:
    """(words, distinct words) of a segmented file as the project reads it:
    any Unicode whitespace, U+3000 included, separates words; a leading BOM is
    dropped. RAISES CorpusFormatError (a ValueError) for bytes that are not UTF-8."""
    words = 0
    types = set()
    for sentence in read_segmented(path):
        words += len(sentence.words)
        types.update(sentence.words)
    return words, len(types)


def verify(relative: str, label: str, path: Path) -> str:
    """Check the file at ``path``, which is to become ``relative`` in the
    assets layout, against its known md5 and published count; return how it
    was verified. RAISES FetchError naming ``label``."""
    checks = []
    known = KNOWN_FILES.get(relative)
    if known is not None:
        actual = md5sum(path)
        if actual != known.md5:
            raise FetchError(f"{label}: md5 mismatch: expected {known.md5}, got {actual}")
        checks.append(f"md5 {actual}")
    if relative in PUBLISHED_COUNTS:
        what, published = PUBLISHED_COUNTS[relative]
        try:
            words, types = count_words(path)
        except ValueError as err:
            raise FetchError(f"{label}: {err}") from err
        measured = types if what == "word types" else words
        if abs(measured - published) > published_tolerance(published):
            raise FetchError(
                f"{label}: {measured:,} {what}, but SIGHAN 2005 published {published:,} "
                f"(tolerance {published_tolerance(published):,}): not the official file"
            )
        checks.append(f"{measured:,} {what} (published {published:,})")
    if not checks:  # a new catalog entry without a checksum or count
        raise FetchError(f"{relative}: no checksum or published count to verify it by")
    return "; ".join(checks)


def download_url(url: str, dest: Path) -> None:
    """Write the body at ``url`` to ``dest``, with a progress bar for big files.
    RAISES OSError when the URL cannot be fetched (urllib's URLError is one)."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, dest.open("wb") as out:
            total = int(response.headers.get("Content-Length") or 0) or None
            small = total is not None and total < BIG_DOWNLOAD
            with tqdm(total=total, unit="B", unit_scale=True, desc=url.rsplit("/", 1)[-1], disable=small) as bar:
                while chunk := response.read(1 << 20):
                    out.write(chunk)
                    bar.update(len(chunk))
    except HTTPException as err:  # e.g. IncompleteRead: a dropped connection
        raise OSError(f"{url}: {err!r}") from err


def fetch_corpus(
    name: str,
    assets: Path,
    local: Optional[Path] = None,
    *,
    download: Download = download_url,
    check: bool = True,
) -> List[FetchedFile]:
    """Put every file of corpus ``name`` under ``assets`` (see the module
    docstring for where each comes from) and return what was done, in order.
    check=False skips the md5 and word-count checks, for your own copies of a
    corpus (e.g. a small sample to try the workflow on).
    RAISES KeyError for an unknown corpus, FetchError for a file that cannot be
    had or fails its checks."""
    corpus = get_corpus(name)
    assets = Path(assets)
    fetched: List[FetchedFile] = []
    for field in FILE_FIELDS:
        relative = getattr(corpus, field)
        if relative is not None:
            fetched.extend(_fetch_file(relative, assets, local, download, check))
    return fetched


def _fetch_file(
    relative: str, assets: Path, local: Optional[Path], download: Download, check: bool
) -> List[FetchedFile]:
    def check_file(label: str, path: Path) -> str:
        return verify(relative, label, path) if check else "not checked (--no-verify)"

    dest = assets / relative
    stale = ""  # why a file already at dest was not kept, for the error message
    if dest.is_file():
        try:
            return [FetchedFile(dest, "present", "", check_file(str(dest), dest))]
        except FetchError as err:
            stale = f" (the file there now failed its check: {err})"
    if local is not None and (local / relative).is_file():
        source = local / relative
        verified = _install(dest, partial(shutil.copyfile, source), partial(check_file, str(source)))
        return [FetchedFile(dest, "local", str(source), verified)]
    if relative in KNOWN_FILES:
        url = KNOWN_FILES[relative].url
        try:
            verified = _install(dest, partial(download, url), partial(check_file, url))
        except OSError as err:
            hint = f"pass --local with a folder holding {relative} (e.g. ../shared/data), or place it at {dest}"
            raise FetchError(_unavailable(relative, stale, url, err, hint)) from err
        return [FetchedFile(dest, "downloaded", url, verified)]
    if relative in ICWB2_MEMBERS:
        member = ICWB2_MEMBERS[relative]
        archive = _icwb2_zip(assets, local, download, relative, dest, stale)
        label = f"{archive.path}:{member}"
        verified = _install(dest, partial(_extract, archive.path, member), partial(check_file, label))
        return [archive, FetchedFile(dest, "extracted", label, verified)]
    raise FetchError(f"{relative}: not in --local and no known public origin{stale}")


def _icwb2_zip(
    assets: Path, local: Optional[Path], download: Download, relative: str, dest: Path, stale: str
) -> FetchedFile:
    """The official SIGHAN 2005 zip: already in ``assets``, in ``local`` (used
    in place), or downloaded into ``assets`` and kept for the other corpora."""
    unchecked = "no published checksum (its members are checked)"
    path = assets / ICWB2_ZIP
    if path.is_file():
        return FetchedFile(path, "present", "", unchecked)
    if local is not None and (local / ICWB2_ZIP).is_file():
        return FetchedFile(local / ICWB2_ZIP, "local", str(local / ICWB2_ZIP), unchecked)

    def is_zip(tmp: Path) -> str:
        if not zipfile.is_zipfile(tmp):
            raise FetchError(f"{ICWB2_URL}: not a zip file")
        return unchecked

    try:
        _install(path, partial(download, ICWB2_URL), is_zip)
    except OSError as err:
        hint = (
            f"pass --local with a folder holding {relative} or {ICWB2_ZIP}, "
            f"or place the file at {dest} (or the zip at {path})"
        )
        raise FetchError(_unavailable(relative, stale, ICWB2_URL, err, hint)) from err
    return FetchedFile(path, "downloaded", ICWB2_URL, unchecked)


def _extract(archive: Path, member: str, out: Path) -> None:
    # Reading a member to its end checks its CRC-32, so a damaged zip fails here.
    try:
        with zipfile.ZipFile(archive) as zipped, zipped.open(member) as src, out.open("wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    except KeyError:
        raise FetchError(f"{archive} has no member {member}: is it the SIGHAN 2005 {ICWB2_ZIP}?") from None
    except zipfile.BadZipFile as err:
        raise FetchError(f"{archive}: damaged zip ({err}); delete it and run again") from err


def _install(dest: Path, write: Callable[[Path], None], check: Callable[[Path], str]) -> str:
    """Write ``dest`` through ``write(tmp)``, check the temporary file and only
    then move it into place, so no unverified file is ever left at ``dest``.
    Returns what ``check`` says."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    try:
        write(tmp)
        verified = check(tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(dest)
    return verified


def _unavailable(relative: str, stale: str, url: str, err: Exception, hint: str) -> str:
    return f"Cannot get {relative}{stale}: download of {url} failed ({err}). If offline, {hint}."
