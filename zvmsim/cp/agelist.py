"""The global aging list of z/VM 6.3: frames on their way to being reclaimed.

The demand scan fills the list from the top with pages it has trial-invalidated
and that nobody touched since (they are *invalid but resident*, IBR); frames
are reclaimed from the bottom. A page touched while on the list is
*revalidated*: it goes back to its owner's valid pages without any I/O. The
list's length is a target, by default 2% of the dynamic paging area
(SET AGELIST); it filters out the pages that are still in use the way
expanded storage used to.

A changed page must be on paging DASD before its frame can be reused. With
*early writes* on, CP writes the changed pages in the bottom part of the list
before they get there (``prewrite_share`` of the target, from the bottom), so
a reclaim finds them *ready*; a page revalidated after its early write was
written for nothing. With early writes off, a changed page reaching the bottom
is written then: a *not-ready* reclaim.

Pages are counted, never objects: the list is a FIFO of chunks ``[space,
pages, written]`` (``written``: how many already have a valid copy on
auxiliary storage, unchanged or written early); each space also keeps its
own chunks in order, and a revalidation takes a page from its oldest chunk.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .spaces import Space

__all__ = ["AgeList", "Reclaim"]


@dataclass
class Reclaim:
    """Pages of one space reclaimed from the bottom of the list."""

    space: Space
    ready: int  # already on auxiliary storage: the frame is free at once
    not_ready: int  # changed and not yet written: written now


class AgeList:
    """The global aging list: target size, contents and its counters."""

    def __init__(self, target: int, early_writes: bool, prewrite_share: float) -> None:
        self.target = target
        self.early_writes = early_writes
        self.prewrite_share = prewrite_share
        self._chunks: deque[list] = deque()  # [space, pages, written], bottom first
        self.pages = 0  # frames on the list now
        self.written = 0  # of which with a valid copy on auxiliary storage
        # cumulative counters for the monitor
        self.pushed = 0
        self.reval_written = 0  # revalidated after it was written (early) or while unchanged
        self.reval_unwritten = 0  # revalidated before any write
        self.ready = 0  # reclaims that needed no write
        self.not_ready = 0  # reclaims that had to wait for a write
        self.early = 0  # pages written early (before they reached the bottom)

    def push(self, space: Space, pages: int, written: int) -> None:
        """*pages* of *space* (of which *written* have a valid aux copy) join the top."""
        if pages <= 0:
            return
        chunks = self._chunks
        if chunks and chunks[-1][0] is space:
            chunks[-1][1] += pages
            chunks[-1][2] += written
        else:
            chunk = [space, pages, written]
            chunks.append(chunk)
            space.age_chunks.append(chunk)
        space.aged += pages
        space.aged_written += written
        self.pages += pages
        self.written += written
        self.pushed += pages

    def revalidate(self, space: Space) -> bool:
        """A page of *space* on the list is touched: it leaves the list, valid again.

        The touched page is taken from the space's newest chunk (the one
        nearest the top): a guest touches again the pages it used lately, so
        the pages it revalidates are mostly ones aged a moment ago, not yet
        written early (the talk's FCX297: 562 changed pages/s revalidated
        before any write against 5 after one). Returns whether it had a valid
        copy on auxiliary storage.
        """
        own = space.age_chunks
        while own[0][1] == 0:
            own.popleft()
        chunk = own[0]
        for newer in reversed(own):
            if newer[1] > 0:
                chunk = newer
                break
        written = space.rnd.random() * chunk[1] < chunk[2]
        chunk[1] -= 1
        space.aged -= 1
        self.pages -= 1
        if written:
            chunk[2] -= 1
            space.aged_written -= 1
            self.written -= 1
            self.reval_written += 1
        else:
            self.reval_unwritten += 1
        return written

    def reclaim(self, need: int) -> list[Reclaim]:
        """Take up to *need* frames from the bottom of the list."""
        out: list[Reclaim] = []
        chunks = self._chunks
        while need > 0 and chunks:
            chunk = chunks[0]
            space, pages, written = chunk
            take = min(need, pages)
            if take <= 0:
                chunks.popleft()
                continue
            ready = min(written, take)  # written pages first: they cost nothing
            chunk[1] -= take
            chunk[2] -= ready
            if chunk[1] <= 0:
                chunks.popleft()
                own = space.age_chunks
                while own and own[0][1] <= 0:
                    own.popleft()
            space.aged -= take
            space.aged_written -= ready
            self.pages -= take
            self.written -= ready
            self.ready += ready
            self.not_ready += take - ready
            out.append(Reclaim(space, ready, take - ready))
            need -= take
        return out

    def to_prewrite(self) -> list[tuple[Space, int]]:
        """With early writes on: changed pages near the bottom to write now.

        Walks up from the bottom through ``prewrite_share`` of the target and
        marks every changed page there written (of a chunk reaching above the
        zone, the share inside it); returns (space, pages) to write.
        """
        if not self.early_writes:
            return []
        depth = int(self.target * self.prewrite_share)
        out: list[tuple[Space, int]] = []
        seen = 0
        for chunk in self._chunks:
            if seen >= depth:
                break
            space, pages, written = chunk
            inside = min(pages, depth - seen)  # a chunk may reach above the zone
            seen += pages
            dirty = pages - written
            if inside < pages:  # only the part in the zone is written: its share
                dirty = round(dirty * inside / pages)
            if dirty > 0:
                chunk[2] += dirty
                space.aged_written += dirty
                self.written += dirty
                self.early += dirty
                out.append((space, dirty))
        return out

    def mark_written(self, space: Space, share: float) -> int:
        """*share* of the unwritten pages of *space* on the list have a current copy
        on auxiliary storage after all (a past the guest brings); returns how many."""
        marked = 0
        for chunk in space.age_chunks:
            k = round((chunk[1] - chunk[2]) * share)
            chunk[2] += k
            marked += k
        space.aged_written += marked
        self.written += marked
        return marked

    def drop_space(self, space: Space) -> None:
        """*space* is destroyed: its chunks leave the list."""
        keep = deque(c for c in self._chunks if c[0] is not space)
        self._chunks = keep
        self.pages -= space.aged
        self.written -= space.aged_written
        space.aged = space.aged_written = 0
        space.age_chunks.clear()
