"""HTTP downloads with retries, truncation checks and zip-member extraction.

Only transient failures (connection errors, time-outs, HTTP 5xx and 429, truncated bodies) are
retried, with exponential backoff; a 404 or another 4xx is final for that URL, so the caller can
move on to its next source at once.
"""

from __future__ import annotations

import http.client
import io
import logging
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass

from weightboost.errors import InputFileError

log = logging.getLogger(__name__)

USER_AGENT = "weightboost-repro/0.1 (+reproduction of Jin et al. 2003)"


class DownloadError(Exception):
    """A URL could not deliver its content; ``transient`` says whether a retry may help."""

    def __init__(self, url: str, reason: str, transient: bool):
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason
        self.transient = transient


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    backoff_seconds: float = 1.0
    timeout_seconds: float = 60.0

    def delays(self):
        """Seconds to wait before each retry: backoff, 2*backoff, 4*backoff, ..."""
        return [self.backoff_seconds * 2**k for k in range(self.attempts - 1)]


def _get_once(url: str, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            expected = response.headers.get("Content-Length")
            body = response.read()
    except http.client.IncompleteRead as exc:
        raise DownloadError(url, f"truncated download: got {len(exc.partial)} bytes, "
                            f"{exc.expected} more were announced", transient=True) from exc
    except urllib.error.HTTPError as exc:
        transient = exc.code >= 500 or exc.code == 429
        raise DownloadError(url, f"HTTP {exc.code} {exc.reason}", transient) from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DownloadError(url, f"network error: {reason}", transient=True) from exc
    except Exception as exc:  # http.client.IncompleteRead and friends
        raise DownloadError(url, f"transfer failed: {exc!r}", transient=True) from exc
    if expected is not None and int(expected) != len(body):
        raise DownloadError(
            url, f"truncated download: got {len(body)} of {expected} bytes", transient=True
        )
    if not body:
        raise DownloadError(url, "empty response", transient=True)
    return body


def http_get(url: str, policy: RetryPolicy = RetryPolicy(), sleep=time.sleep) -> bytes:
    """Return the body of ``url``, retrying transient failures per ``policy``."""
    delays = policy.delays()
    for attempt in range(policy.attempts):
        try:
            return _get_once(url, policy.timeout_seconds)
        except DownloadError as exc:
            if not exc.transient or attempt == policy.attempts - 1:
                raise
            wait = delays[attempt]
            log.warning("%s (attempt %d/%d); retrying in %.1f s", exc, attempt + 1,
                        policy.attempts, wait)
            sleep(wait)
    raise AssertionError("unreachable")


def extract_member(archive: bytes, member_name: str, archive_label: str) -> bytes:
    """Return the bytes of the member of a zip or (gzipped) tar archive whose base name is
    ``member_name``.

    The UCI archives are not laid out alike (some nest a folder), so members are matched by
    their base name; the archive kind is recognised from its first bytes.
    """
    if archive[:2] == b"PK":
        try:
            with zipfile.ZipFile(io.BytesIO(archive)) as bundle:
                names = bundle.namelist()
                matches = [n for n in names if n.rsplit("/", 1)[-1] == member_name]
                if matches:
                    return bundle.read(sorted(matches, key=len)[0])
        except zipfile.BadZipFile as exc:
            raise InputFileError(f"archive {archive_label} is not a valid zip file ({exc}); "
                                 "it may be truncated") from exc
    else:
        try:
            with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as bundle:
                members = [m for m in bundle.getmembers() if m.isfile()]
                names = [m.name for m in members]
                matches = [m for m in members if m.name.rsplit("/", 1)[-1] == member_name]
                if matches:
                    return bundle.extractfile(sorted(matches, key=lambda m: len(m.name))[0]).read()
        except (tarfile.TarError, EOFError, OSError) as exc:
            raise InputFileError(f"archive {archive_label} is neither a valid zip nor tar file "
                                 f"({exc}); it may be truncated") from exc
    raise InputFileError(f"archive {archive_label} has no member named {member_name!r} "
                         f"(members: {', '.join(names[:20])})")
