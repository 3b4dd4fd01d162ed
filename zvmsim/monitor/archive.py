"""Packaging monitor data to send: several files and a note in one archive.

On CMS, IBM asked for MONWRITE files packed with VMARC: one compressed
archive holding the monitor files and whatever else helps (a console log,
QUERY output, a note saying what was collected when). Compression shrinks
monitor data a lot, and unpacking checks it arrived whole. These helpers do
the same with the standard library: a ZIP file (or a ``.tar.gz``) holding
the files, the note as ``NOTES.TXT`` and a ``MANIFEST.TXT`` that lists every
file with its size, its SHA-256 and, for a MONWRITE file, the system and
time span it covers. Every MONWRITE file is read through before it is
packed and again when it is unpacked, so a damaged file is caught at either
end. Archives are byte-for-byte reproducible (fixed member times).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import ZvmsimError
from .monread import MonwriteReader, is_monwrite
from .tod import from_tod

__all__ = ["ArchiveMember", "list_archive", "pack", "unpack"]

NOTES, MANIFEST = "NOTES.TXT", "MANIFEST.TXT"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # ZIP's earliest date: the same bytes every time


@dataclass(frozen=True)
class ArchiveMember:
    """One file in an archive: its size before and after packing, and what it is."""

    name: str
    size: int
    packed: int | None  # a .tar.gz compresses all members together: no size of its own
    what: str


def describe(name: str, data: bytes) -> str:
    """What a file is: a MONWRITE file's system, time span and records, or its kind."""
    if name == NOTES:
        return "notes"
    if name == MANIFEST:
        return "manifest"
    if not is_monwrite(data):
        return "other file"
    reader = MonwriteReader(data, name=name)
    count, first, last = 0, None, None
    for rset in reader.sets():
        count += len(rset.records)
        first = rset.records[0].tod if first is None else first
        last = rset.records[-1].tod
    if first is None or last is None:
        return f"MONWRITE {reader.sysid}, no records"
    span = f"{from_tod(first):%Y/%m/%d %H:%M:%S}-{from_tod(last):%H:%M:%S}"
    return f"MONWRITE {reader.sysid} {span}, {count} records"


def _manifest(files: dict[str, bytes]) -> str:
    lines = ["zvmsim monitor data archive", ""]
    for name, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        lines.append(f"{name:<24} {len(data):>12} bytes  sha256 {digest}")
        lines.append(f"{'':<24} {describe(name, data)}")
    return "\n".join(lines) + "\n"


def _is_tar(path: Path) -> bool:
    return path.name.endswith((".tar.gz", ".tgz"))


def pack(archive: str | Path, files: list[str | Path], notes: str = "") -> list[ArchiveMember]:
    """Pack *files* and a *notes* text into *archive* (``.zip``, ``.tar.gz`` or ``.tgz``)."""
    archive = Path(archive)
    if not files:
        raise ZvmsimError("nothing to pack: name at least one monitor file")
    contents: dict[str, bytes] = {}
    for item in map(Path, files):
        if item.name in contents or item.name in (NOTES, MANIFEST):
            raise ZvmsimError(f"two files named {item.name}: an archive keeps one of each name")
        try:
            contents[item.name] = item.read_bytes()
        except OSError as exc:
            raise ZvmsimError(f"cannot read {item}: {exc.strerror}") from None
    contents[NOTES] = (notes.rstrip("\n") + "\n").encode() if notes else b"(no notes)\n"
    contents[MANIFEST] = _manifest(contents).encode()
    try:
        if _is_tar(archive):
            _write_tar(archive, contents)
        elif archive.suffix.lower() == ".zip":
            _write_zip(archive, contents)
        else:
            raise ZvmsimError(f"{archive.name}: an archive name ends in .zip, .tar.gz or .tgz")
    except OSError as exc:
        raise ZvmsimError(f"cannot write {archive}: {exc.strerror}") from None
    return list_archive(archive)


def _write_zip(path: Path, contents: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in contents.items():
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data, compresslevel=9)


def _write_tar(path: Path, contents: dict[str, bytes]) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in contents.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tf.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(raw.getvalue(), compresslevel=9, mtime=0))


def _members(path: Path) -> dict[str, tuple[bytes, int | None]]:
    """Every member's bytes and packed size; damage is a ZvmsimError."""
    try:
        if _is_tar(path):
            out: dict[str, tuple[bytes, int | None]] = {}
            with tarfile.open(path, "r:gz") as tf:
                for info in tf.getmembers():
                    fh = tf.extractfile(info) if info.isfile() else None
                    if fh is None:
                        raise ZvmsimError(f"{path}: member {info.name} is not a plain file")
                    out[info.name] = (fh.read(), None)
            return out
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()  # every member's CRC-32
            if bad is not None:
                raise ZvmsimError(f"{path}: member {bad} is damaged (its CRC does not match)")
            return {i.filename: (zf.read(i), i.compress_size) for i in zf.infolist()}
    except FileNotFoundError:
        raise ZvmsimError(f"cannot read {path}: no such file") from None
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise ZvmsimError(f"{path} is not a readable archive: {exc}") from None


def list_archive(archive: str | Path) -> list[ArchiveMember]:
    """What *archive* holds, each MONWRITE file read through and described."""
    return [
        ArchiveMember(name, len(data), packed, describe(name, data))
        for name, (data, packed) in _members(Path(archive)).items()
    ]


def unpack(archive: str | Path, into: str | Path = ".") -> list[Path]:
    """Unpack *archive* into the folder *into*; check every file against the manifest."""
    members = _members(Path(archive))
    manifest = members.get(MANIFEST, (b"", 0))[0].decode(errors="replace")
    into = Path(into)
    written = []
    for name, (data, _) in members.items():
        if Path(name).name != name or name in ("", ".", ".."):
            raise ZvmsimError(f"{archive}: refusing member {name!r}: it names a folder")
        if name not in (NOTES, MANIFEST):
            if f"sha256 {hashlib.sha256(data).hexdigest()}" not in manifest:
                raise ZvmsimError(f"{archive}: {name} does not match the archive's manifest")
            describe(name, data)  # a MONWRITE file must read through cleanly
    try:
        into.mkdir(parents=True, exist_ok=True)
        for name, (data, _) in members.items():
            (into / name).write_bytes(data)
            written.append(into / name)
    except OSError as exc:
        raise ZvmsimError(f"cannot write into {into}: {exc.strerror}") from None
    return written
