"""NLTK's ApteMod package (``corpora/reuters.zip``) as an alternative source to the SGML files.

The package, as ``nltk.download("reuters")`` installs it, is a zip (or its unpacked folder)
holding ``reuters/cats.txt`` - one line per document, ``training/<NEWID> cat ...`` or
``test/<NEWID> cat ...`` - and one file per document, ``reuters/training/<NEWID>`` or
``reuters/test/<NEWID>``: the TITLE on the first line, the BODY after it. Files are read as
ISO-8859-2, as NLTK's own corpus reader does (the one non-ASCII byte of the collection, 0xFC,
is the same letter in ISO-8859-1 and -2). The package keeps the SGML's entity escapes
(``&lt;``); they are decoded as the SGML parser decodes them, so both sources give the same
text to the text pipeline.

The package already is the ApteMod selection (7,769 / 3,019 documents, 90 categories), so
the ModApte counts before the category filter (9,603 / 3,299) do not exist for it. Documents
are returned as ``sgml.Document`` records with LEWISSPLIT TRAIN/TEST and TOPICS YES, so the
same split code and the same asserted counts apply to both sources.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from weightboost.errors import InputFileError
from weightboost.reuters.sgml import Document, ParseReport, decode_entities

ENCODING = "ISO-8859-2"
PARTS = {"training": "TRAIN", "test": "TEST"}


class _Package:
    """Read access to the package's members, whether zipped or unpacked."""

    def __init__(self, path):
        self.path = Path(path)
        if self.path.is_dir():
            self._zip = None
            self.root = self.path if (self.path / "cats.txt").is_file() else self.path / "reuters"
        else:
            try:
                self._zip = zipfile.ZipFile(self.path)
            except FileNotFoundError:
                raise InputFileError(f"NLTK's Reuters package {self.path} does not exist; fetch "
                                     "it with `snakemake reuters` (config reuters.source: nltk) "
                                     "or set reuters.nltk_package.path to your copy") from None
            except zipfile.BadZipFile as exc:
                raise InputFileError(f"{self.path} is not a zip file ({exc}); replace it with "
                                     "an unmodified copy of NLTK's reuters.zip") from None
            names = self._zip.namelist()
            self.root = Path("reuters") if "reuters/cats.txt" in names else Path("")

    def read(self, member: str) -> bytes:
        try:
            if self._zip is None:
                return (self.root / member).read_bytes()
            return self._zip.read(str(self.root / member))
        except (FileNotFoundError, KeyError):
            raise InputFileError(f"{self.path}: member {self.root / member} is missing; the "
                                 "package is incomplete - replace it with an unmodified copy of "
                                 "NLTK's reuters.zip") from None

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


def read_package(path) -> ParseReport:
    """All documents listed in the package's ``cats.txt``, in file order."""
    package = _Package(path)
    report = ParseReport()
    try:
        listing = package.read("cats.txt").decode(ENCODING)
        for number, line in enumerate(listing.splitlines(), start=1):
            if not line.strip():
                continue
            fileid, *topics = line.split()
            part, _, name = fileid.partition("/")
            if part not in PARTS or not name.isdigit():
                raise InputFileError(f"{path}: cats.txt line {number} names {fileid!r}; expected "
                                     "training/<NEWID> or test/<NEWID>")
            text = decode_entities(package.read(fileid).decode(ENCODING))
            title, _, body = text.partition("\n")
            report.documents.append(Document(
                newid=int(name), lewissplit=PARTS[part], topics_flag="YES", topics=topics,
                title=title.strip(), body=body, text_type="NORM"))
        report.opening_tags = len(report.documents)
    finally:
        package.close()
    if not report.documents:
        raise InputFileError(f"{path}: cats.txt lists no documents; replace the package with an "
                             "unmodified copy of NLTK's reuters.zip")
    return report
