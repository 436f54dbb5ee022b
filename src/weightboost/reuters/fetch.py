"""The raw files of the Reuters stage as pinned ``RawFile``s (see ``weightboost.data.fetch``)."""

from __future__ import annotations

from weightboost.data.fetch import RawFile, Remote


def _remotes(entries, member=None):
    return tuple(Remote(e["url"], tuple(e.get("members", ())) + ((member,) if member else ()))
                 for e in entries)


def sgml_files(options: dict) -> list[RawFile]:
    """The 22 SGML files; a remote archive yields each file as a member of that name."""
    return [RawFile("reuters", f"{options['folder']}/{name}", sha, f"reuters.sgml.{name}",
                    _remotes(options.get("remotes", []), name))
            for name, sha in sorted(options["sgml"].items())]


def stopword_file(options: dict) -> RawFile:
    entry = options["stopwords"]
    return RawFile("nltk-stopwords", entry["file"], entry["sha256"],
                   "reuters.stopwords.sha256", _remotes(entry.get("remotes", [])))


def nltk_package_file(options: dict) -> RawFile:
    """NLTK's ApteMod package (config ``reuters.nltk_package``): the user's own copy
    (``path``) first, then the mirror and the remotes."""
    entry = options["nltk_package"]
    return RawFile("nltk-reuters", entry["file"], entry.get("sha256"),
                   "reuters.nltk_package.sha256", _remotes(entry.get("remotes", [])),
                   local=entry.get("path"))
