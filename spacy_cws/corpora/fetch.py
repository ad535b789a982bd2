"""Put a corpus's files under an assets folder, in the catalog layout, verified.

The URLs and md5 sums stand once, in project.yml's ``assets`` section, which
``spacy project assets`` (weasel) downloads from; this module reads them from
there (:func:`project_assets`). It exists beside weasel for what weasel's
assets cannot express: fetching only the files of one corpus, a local copy
tried before the download (``vars.local_data``, checked against the same
md5s), and the files that are members of an archive (extracted here): the
SIGHAN 2005 training sets, in the official icwb2-data.zip, which has no
published checksum (checked against the bakeoff's published word counts
instead), and People's Daily 1998's 199801.txt, in its repository's
199801.zip (both md5-checked; project.yml lists 199801.txt without a URL, as
a file to place by hand).

Each file the catalog names for a corpus comes from the first of:

1. the destination itself, when it is already there and passes its checks
   (so reruns, e.g. by weasel, do nothing);
2. a local folder (``--local``, e.g. ../shared/data) holding it at the same
   relative path;
3. its public origin in project.yml: a raw GitHub file at a pinned commit
   (MANIFEST.md), or, for an archive's member, the archive (``ARCHIVE_MEMBERS``).

A file is written to ``NAME.part`` and only moved into place once it passes,
so a failed fetch never leaves a bad file.
"""
import hashlib
import shutil
import urllib.request
import zipfile
from dataclasses import dataclass
from functools import lru_cache, partial
from http.client import HTTPException
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

import srsly
from tqdm import tqdm

from .catalog import get_corpus
from .formats import read_segmented

# download(url, dest) writes the body at url to dest; raises OSError (e.g.
# urllib's URLError) when it cannot. Injectable so tests need no network.
Download = Callable[[str, Path], None]

# The project whose ``assets`` list the files: the spacy-cws project holding
# this package (README's install command installs it editable).
PROJECT_FILE = Path(__file__).resolve().parents[2] / "project.yml"
ASSETS_DIR = "assets"  # the folder of project.yml's asset destinations

ICWB2_ZIP = "icwb2-data.zip"  # kept in the assets folder: all four corpora use it
PFR_ZIP = "pku_pfr1998/199801.zip"
# Files that are members of an archive in project.yml's assets: relative path ->
# (the archive's relative path, the member's name in it).
ARCHIVE_MEMBERS: Dict[str, Tuple[str, str]] = {
    **{
        f"sighan2005/{name}/training.utf8": (ICWB2_ZIP, f"icwb2-data/training/{name}_training.utf8")
        for name in ("pku", "msr", "as", "cityu")
    },
    "pku_pfr1998/199801.txt": (PFR_ZIP, "199801.txt"),
}

TIMEOUT_S = 60  # per blocking network operation, not for the whole download
BIG_DOWNLOAD = 1 << 20  # bytes; smaller downloads get no progress bar


class Asset(NamedTuple):
    """A file of project.yml's assets: its public URL (None: an archive's member,
    or a file to place by hand) and md5 (None: unknown)."""

    url: Optional[str]
    md5: Optional[str]


@lru_cache(maxsize=None)
def project_assets() -> Dict[str, Asset]:
    """The files under assets/ that PROJECT_FILE's ``assets`` section lists,
    keyed by their path below assets/ (e.g. "ctb6/train.seg").
    RAISES FetchError when the project file cannot be read."""
    try:
        config = srsly.read_yaml(PROJECT_FILE)
    except (OSError, ValueError) as err:
        raise FetchError(f"Cannot read the assets of {PROJECT_FILE}: {err}") from err
    prefix = ASSETS_DIR + "/"
    return {
        entry["dest"][len(prefix) :]: Asset(entry.get("url"), entry.get("checksum"))
        for entry in config.get("assets", [])
        if entry.get("dest", "").startswith(prefix) and (entry.get("url") or entry.get("checksum"))
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
    "downloaded" or "extracted" (from an archive, ``ARCHIVE_MEMBERS``). The
    archive itself is listed too when a file was extracted from it.
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
    assets layout, against its md5 in project.yml's assets and its published
    count; return how it was verified. RAISES FetchError naming ``label``."""
    checks = []
    known = project_assets().get(relative)
    if known is not None and known.md5 is not None:
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
    for _, relative in corpus.labelled_files():
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
    known = project_assets().get(relative)
    if known is not None and known.url is not None and known.md5 is not None:
        url = known.url
        try:
            verified = _install(dest, partial(download, url), partial(check_file, url))
        except OSError as err:
            hint = f"pass --local with a folder holding {relative} (e.g. ../shared/data), or place it at {dest}"
            raise FetchError(_unavailable(relative, stale, url, err, hint)) from err
        return [FetchedFile(dest, "downloaded", url, verified)]
    if relative in ARCHIVE_MEMBERS:
        archive_relative, member = ARCHIVE_MEMBERS[relative]
        archive = _archive(archive_relative, assets, local, download, relative, dest, stale)
        label = f"{archive.path}:{member}"
        extract = partial(_extract, archive.path, member, archive_relative)
        verified = _install(dest, extract, partial(check_file, label))
        return [archive, FetchedFile(dest, "extracted", label, verified)]
    raise FetchError(f"{relative}: not in --local and no known public origin{stale}")


def _archive(
    archive: str, assets: Path, local: Optional[Path], download: Download, relative: str, dest: Path, stale: str
) -> FetchedFile:
    """The archive (relative path) holding ``relative``: already in ``assets``, in
    ``local`` (used in place), or downloaded into ``assets`` and kept for its
    other members. Checked by its md5 in project.yml where it has one; the
    icwb2-data.zip has none (its members are checked)."""
    known = project_assets()[archive]

    def check(label: str, path: Path) -> str:
        if known.md5 is not None:
            return verify(archive, label, path)
        return "no published checksum (its members are checked)"

    def check_download(label: str, path: Path) -> str:
        if not zipfile.is_zipfile(path):  # e.g. an HTML error page
            raise FetchError(f"{label}: not a zip file")
        return check(label, path)

    path = assets / archive
    if path.is_file():
        return FetchedFile(path, "present", "", check(str(path), path))
    if local is not None and (local / archive).is_file():
        return FetchedFile(local / archive, "local", str(local / archive), check(str(local / archive), local / archive))
    try:
        verified = _install(path, partial(download, known.url), partial(check_download, known.url))
    except OSError as err:
        hint = (
            f"pass --local with a folder holding {relative} or {archive}, "
            f"or place the file at {dest} (or the archive at {path})"
        )
        raise FetchError(_unavailable(relative, stale, known.url, err, hint)) from err
    return FetchedFile(path, "downloaded", known.url, verified)


def _extract(archive: Path, member: str, archive_relative: str, out: Path) -> None:
    # Reading a member to its end checks its CRC-32, so a damaged zip fails here.
    try:
        with zipfile.ZipFile(archive) as zipped, zipped.open(member) as src, out.open("wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    except KeyError:
        raise FetchError(f"{archive} has no member {member}: is it the {archive_relative} project.yml names?") from None
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
