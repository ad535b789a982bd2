"""``fetch``: local copies, simulated downloads, the icwb2-data.zip path, checks and the CLI.

No test touches the network: downloads go through a fake ``download`` function."""
import shutil
import zipfile
from urllib.error import URLError

import pytest

from spacy_cws.corpora.catalog import CORPORA
from spacy_cws.corpora.fetch import (
    ARCHIVE_MEMBERS,
    ICWB2_ZIP,
    PFR_ZIP,
    PUBLISHED_COUNTS,
    Asset,
    FetchError,
    count_words,
    fetch_corpus,
    md5sum,
    project_assets,
    verify,
)

CTB6 = ["ctb6/train.seg", "ctb6/dev.seg", "ctb6/test.seg"]
SIGHAN2005 = ["pku", "msr", "as", "cityu"]
KNOWN_FILES = project_assets()  # project.yml's assets
ICWB2_URL = KNOWN_FILES[ICWB2_ZIP].url


def offline(url, dest):
    raise URLError("[Errno -2] Name or service not known")


def serve_from(folder):
    """A fake download that serves each known URL from ``folder`` and records what was asked."""
    by_url = {known.url: relative for relative, known in KNOWN_FILES.items()}

    def download(url, dest):
        download.urls.append(url)
        shutil.copyfile(folder / by_url[url], dest)

    download.urls = []
    return download


def serve_zip(archive):
    def download(url, dest):
        assert url == ICWB2_URL
        download.calls += 1
        shutil.copyfile(archive, dest)

    download.calls = 0
    return download


@pytest.fixture
def fake_icwb2_zip(tmp_path):
    """A tiny zip in the icwb2-data layout whose PKU training set is 4 words, not 1,109,947."""
    path = tmp_path / "upstream" / "icwb2-data.zip"
    path.parent.mkdir()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("icwb2-data/training/pku_training.utf8", "上海\u3000浦东 开发\r\n建设\r\n".encode("utf-8"))
    return path


def test_project_yml_is_the_one_list_of_origins():
    """Every catalogued file has its URL and md5 in project.yml's assets, or is a
    member of an archive listed there: a SIGHAN 2005 training set in the zip
    without a checksum (checked by word counts), or PFR's 199801.txt (md5, no URL)."""
    for corpus in CORPORA.values():
        for _, relative in corpus.labelled_files():
            if relative in ARCHIVE_MEMBERS:
                archive = KNOWN_FILES[ARCHIVE_MEMBERS[relative][0]]
                assert archive.url.startswith("http")
                assert relative in PUBLISHED_COUNTS or (archive.md5 and KNOWN_FILES[relative].md5)
            else:
                assert KNOWN_FILES[relative].md5 and KNOWN_FILES[relative].url.startswith("https://")


def test_local_copy_verified_by_md5(shared_data, tmp_path):
    fetched = fetch_corpus("ctb6", tmp_path / "assets", shared_data, download=offline)
    assert [f.path for f in fetched] == [tmp_path / "assets" / rel for rel in CTB6]
    assert {f.source for f in fetched} == {"local"}
    for file, rel in zip(fetched, CTB6):
        assert file.origin == str(shared_data / rel)
        assert file.verified == f"md5 {KNOWN_FILES[rel].md5}"
        assert md5sum(file.path) == md5sum(shared_data / rel)


def test_second_run_skips_present_files(shared_data, tmp_path):
    fetch_corpus("ctb6", tmp_path, shared_data, download=offline)
    again = fetch_corpus("ctb6", tmp_path, None, download=offline)
    assert [(f.source, f.origin) for f in again] == [("present", "")] * 3


def test_present_file_failing_its_check_is_replaced(shared_data, tmp_path):
    fetch_corpus("ctb6", tmp_path, shared_data, download=offline)
    (tmp_path / "ctb6/dev.seg").write_text("damaged\n", encoding="utf-8")
    again = fetch_corpus("ctb6", tmp_path, shared_data, download=offline)
    assert [f.source for f in again] == ["present", "local", "present"]
    assert md5sum(tmp_path / "ctb6/dev.seg") == KNOWN_FILES["ctb6/dev.seg"].md5


def test_corrupted_local_file_is_an_error_naming_it(tmp_path):
    local = tmp_path / "local"
    (local / "ctb6").mkdir(parents=True)
    (local / "ctb6/train.seg").write_bytes(b"not ctb6\n")
    with pytest.raises(FetchError) as info:
        fetch_corpus("ctb6", tmp_path / "assets", local, download=offline)
    message = str(info.value)
    assert str(local / "ctb6/train.seg") in message
    assert KNOWN_FILES["ctb6/train.seg"].md5 in message
    assert md5sum(local / "ctb6/train.seg") in message
    assert list((tmp_path / "assets/ctb6").iterdir()) == []  # neither the bad copy nor a .part left


def test_offline_and_missing_names_file_url_and_remedy(tmp_path):
    with pytest.raises(FetchError) as info:
        fetch_corpus("zx", tmp_path, download=offline)
    message = str(info.value)
    assert "zx/train.zhuxian.wordpos" in message
    assert KNOWN_FILES["zx/train.zhuxian.wordpos"].url in message
    assert "--local" in message and str(tmp_path / "zx/train.zhuxian.wordpos") in message


def test_simulated_download_verified_by_md5(shared_data, tmp_path):
    download = serve_from(shared_data)
    fetched = fetch_corpus("sxu", tmp_path, download=download)
    rels = ["sighan2008_sxu/train.txt", "sighan2008_sxu/test.txt"]
    assert download.urls == [KNOWN_FILES[rel].url for rel in rels]
    assert [(f.source, f.origin) for f in fetched] == [("downloaded", KNOWN_FILES[rel].url) for rel in rels]


def test_download_with_wrong_content_is_an_error_naming_the_url(tmp_path):
    def wrong(url, dest):
        dest.write_bytes(b"<html>rate limited</html>")

    with pytest.raises(FetchError, match="md5 mismatch") as info:
        fetch_corpus("sxu", tmp_path, download=wrong)
    assert KNOWN_FILES["sighan2008_sxu/train.txt"].url in str(info.value)
    assert list((tmp_path / "sighan2008_sxu").iterdir()) == []


def test_zip_whose_training_set_does_not_match_published_counts_fails(fake_icwb2_zip, tmp_path):
    download = serve_zip(fake_icwb2_zip)
    with pytest.raises(FetchError) as info:
        fetch_corpus("pku", tmp_path, download=download)
    message = str(info.value)
    assert "icwb2-data/training/pku_training.utf8" in message
    assert "4 words" in message and "1,109,947" in message
    assert (tmp_path / "icwb2-data.zip").is_file()  # kept: downloaded once for all corpora
    assert not (tmp_path / "sighan2005/pku/training.utf8").exists()


def test_zip_training_set_extracted_and_counted(shared_data, fake_icwb2_zip, tmp_path, monkeypatch):
    # Pretend the published count is the fake's, to follow the path a genuine zip takes.
    monkeypatch.setitem(PUBLISHED_COUNTS, "sighan2005/pku/training.utf8", ("words", 4))
    download = serve_zip(fake_icwb2_zip)
    fetched = fetch_corpus("pku", tmp_path, shared_data, download=download)
    assert [(f.path.relative_to(tmp_path).as_posix(), f.source) for f in fetched] == [
        ("icwb2-data.zip", "downloaded"),
        ("sighan2005/pku/training.utf8", "extracted"),
        ("sighan2005/pku/test.utf8", "local"),
        ("sighan2005/pku/test_gold.utf8", "local"),
        ("sighan2005/pku/training_words.utf8", "local"),
    ]
    assert fetched[1].verified == "4 words (published 4)"
    assert fetched[3].verified.endswith("104,372 words (published 104,372)")
    again = fetch_corpus("pku", tmp_path, None, download=download)
    assert {f.source for f in again} == {"present"} and download.calls == 1


def test_zip_without_the_member_is_an_error(tmp_path):
    archive = tmp_path / "other.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("readme.txt", "not the bakeoff data")
    with pytest.raises(FetchError, match="no member icwb2-data/training/msr_training.utf8"):
        fetch_corpus("msr", tmp_path / "assets", download=serve_zip(archive))


@pytest.mark.parametrize("name", SIGHAN2005)
def test_count_check_matches_published_statistics_on_real_files(shared_data, name):
    gold = f"sighan2005/{name}/test_gold.utf8"
    assert count_words(shared_data / gold)[0] == PUBLISHED_COUNTS[gold][1]
    # Word lists: within the tolerance (CityU's "Phang\u3000Nga", AS's 141,338 of 141,340).
    word_list = f"sighan2005/{name}/training_words.utf8"
    assert "word types (published" in verify(word_list, word_list, shared_data / word_list)


def test_count_check_rejects_the_normalized_partial_training_set(shared_data, tmp_path):
    partial = shared_data / "sighan2005/msr/train_last10pct.greedyCWS-normalized.utf8"
    with pytest.raises(FetchError, match="246,662 words, but SIGHAN 2005 published 2,368,391"):
        verify("sighan2005/msr/training.utf8", str(partial), partial)


@pytest.fixture
def cli():
    from typer.testing import CliRunner

    from spacy_cws.cli import app

    runner = CliRunner()
    return lambda *args: runner.invoke(app, ["fetch", *map(str, args)])


def test_cli_local_then_present(cli, shared_data, tmp_path):
    result = cli("ctb6", "--assets", tmp_path, "--local", shared_data)
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())  # wasabi wraps long lines
    assert f"dev.seg: local from {shared_data / 'ctb6/dev.seg'}" in output
    assert f"verified: md5 {KNOWN_FILES['ctb6/dev.seg'].md5}" in output
    result = cli("ctb6", "--assets", tmp_path)
    assert result.exit_code == 0 and " ".join(result.output.split()).count(": present") == 3


def test_cli_errors(cli, tmp_path):
    result = cli("nope", "--assets", tmp_path)
    assert result.exit_code == 1 and "Unknown corpus 'nope'" in result.output
    assert cli("ctb6", "--local", tmp_path / "missing").exit_code == 2


def test_pku_pfr_local_copies_verified_by_md5(shared_data, tmp_path):
    fetched = fetch_corpus("pku_pfr", tmp_path, shared_data, download=offline)
    assert [(f.path.relative_to(tmp_path).as_posix(), f.source) for f in fetched] == [
        ("pku_pfr1998/199801.txt", "local"),
        *((f"pku_pfr1998/cv-{fold}-filter_test.txt", "local") for fold in range(1, 6)),
        ("sighan2005_train_samples/pku_dev.txt", "local"),
        ("sighan2005/pku/test.utf8", "local"),
        ("sighan2005/pku/test_gold.utf8", "local"),
        ("sighan2005/pku/training_words.utf8", "local"),
    ]
    assert fetched[0].verified == f"md5 {KNOWN_FILES['pku_pfr1998/199801.txt'].md5}"
    assert fetched[5].verified == f"md5 {KNOWN_FILES['pku_pfr1998/cv-5-filter_test.txt'].md5}"


@pytest.fixture
def pfr_zip(shared_data, tmp_path, monkeypatch):
    """A zip holding the real 199801.txt, standing for the repository's (its md5 in place of the real zip's)."""
    path = tmp_path / "upstream" / "199801.zip"
    path.parent.mkdir()
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(shared_data / "pku_pfr1998/199801.txt", "199801.txt")
    monkeypatch.setitem(project_assets(), PFR_ZIP, Asset(KNOWN_FILES[PFR_ZIP].url, md5sum(path)))
    return path


def test_pfr_zip_downloaded_checked_and_extracted(shared_data, pfr_zip, tmp_path):
    served = serve_from(shared_data)

    def download(url, dest):
        if url == KNOWN_FILES[PFR_ZIP].url:
            shutil.copyfile(pfr_zip, dest)
        else:
            served(url, dest)

    fetched = fetch_corpus("pku_pfr", tmp_path / "assets", download=download)
    assert [(f.path.relative_to(tmp_path / "assets").as_posix(), f.source) for f in fetched[:3]] == [
        (PFR_ZIP, "downloaded"),
        ("pku_pfr1998/199801.txt", "extracted"),
        ("pku_pfr1998/cv-1-filter_test.txt", "downloaded"),
    ]
    assert fetched[0].verified == f"md5 {md5sum(pfr_zip)}"
    assert fetched[1].verified == f"md5 {KNOWN_FILES['pku_pfr1998/199801.txt'].md5}"


def test_pfr_zip_that_fails_its_md5_is_an_error_naming_the_url(tmp_path, fake_icwb2_zip):
    with pytest.raises(FetchError, match="md5 mismatch") as info:
        fetch_corpus("pku_pfr", tmp_path, download=lambda url, dest: shutil.copyfile(fake_icwb2_zip, dest))
    assert KNOWN_FILES[PFR_ZIP].url in str(info.value)
    assert not (tmp_path / PFR_ZIP).exists() and not (tmp_path / "pku_pfr1998/199801.txt").exists()
