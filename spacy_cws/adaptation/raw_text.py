"""The user's raw domain text: UTF-8 files, one text a line."""
from pathlib import Path
from typing import List, Sequence, Union

# Fewer characters than this are too few to mine words or to self-train from.
MIN_CHARACTERS = 1_000


def read_raw_texts(paths: Sequence[Union[str, Path]], min_characters: int = MIN_CHARACTERS) -> List[str]:
    """The non-blank lines of the files, without their line ends and outer
    whitespace, in order (a UTF-8 byte order mark at a file's start is dropped).

    RETURNS: the texts, one per non-blank line.
    RAISES FileNotFoundError: naming a missing file (IsADirectoryError for a
        folder); ValueError: naming the file and line of bytes that are not
        UTF-8, or when all files hold fewer than ``min_characters``
        non-whitespace characters in all.
    """
    texts: List[str] = []
    for path in map(Path, paths):
        if path.is_dir():
            raise IsADirectoryError(f"Raw text file is a folder, not a file: {path}")
        if not path.is_file():
            raise FileNotFoundError(f"Raw text file not found: {path}")
        with path.open("rb") as stream:
            for number, raw in enumerate(stream, start=1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as err:
                    raise ValueError(
                        f"{path}:{number}: not UTF-8 (byte {err.start + 1} of the line): the raw text must be UTF-8"
                    ) from None
                if number == 1:
                    line = line.lstrip("\ufeff")
                line = line.strip()
                if line:
                    texts.append(line)
    n_characters = sum(len("".join(text.split())) for text in texts)
    if n_characters < min_characters:
        names = ", ".join(str(path) for path in paths)
        raise ValueError(
            f"The raw text ({names}) holds {n_characters:,} characters; adapting needs at least "
            f"{min_characters:,} (a few thousand sentences of the domain are better)"
        )
    return texts
