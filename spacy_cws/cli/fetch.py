"""``python -m spacy_cws fetch``: put a corpus's files under the assets folder, verified."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..corpora.catalog import CORPORA
from ..corpora.fetch import FetchError, fetch_corpus
from . import app
from .errors import fail


@app.command("fetch")
def fetch_cli(
    corpus: str = typer.Argument(..., help=f"Corpus: {', '.join(CORPORA)}."),
    assets: Path = typer.Option(Path("assets"), "--assets", help="Folder to put the files in (catalog layout)."),
    local: Optional[Path] = typer.Option(
        None,
        "--local",
        exists=True,
        file_okay=False,
        help="Folder holding the files at the same relative paths (e.g. ../shared/data), "
        "and/or icwb2-data.zip; used before downloading.",
    ),
    check: bool = typer.Option(
        True,
        "--verify/--no-verify",
        help="Check md5 sums and published word counts (skip only for your own corpus copies).",
    ),
):
    """Put a catalogued corpus's files under ASSETS: a local copy, else a download.

    Put every file of CORPUS under ASSETS: kept if already there and
    verified, else copied from --local, else downloaded from its public origin
    in project.yml's assets (the SIGHAN 2005 training sets from the official
    icwb2-data.zip). Files are
    checked by md5, or, without one, by the published SIGHAN 2005 word counts."""
    try:
        fetched = fetch_corpus(corpus, assets, local, check=check)
    except KeyError as err:
        fail(err.args[0])
    except (FetchError, OSError) as err:  # OSError: e.g. copying from --local or a full disk
        fail(str(err))
    msg.divider(f"fetch {corpus}")
    # One entry per file rather than a table: URLs and md5 sums are too wide for columns.
    for file in fetched:
        msg.good(f"{file.path}: {file.source}" + (f" from {file.origin}" if file.origin else ""))
        msg.text(f"  verified: {file.verified}")
    msg.good(f"{corpus}: {len(fetched)} file(s) in place under {assets}")
