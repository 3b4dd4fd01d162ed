"""Hand-written encoders of CP Monitor records, from IBM's documented offsets.

Written from the layouts alone (docs/monwrite-format.md names the release and
the sources), never from ``zvmsim.monitor.records``: a test that builds its
records here and reads them with zvmsim's reader checks the reader against
IBM's layout, not against our own writer. Every record is z/VM 5.3's layout
(offsets and total length); each encoder names IBM's page for the record.

``appldata`` encodes zvmsim's own Domain 10 records (IBM's MRAPLSDT header,
product ``ZVMSIM  <record name>``) from the payload layout the document gives.
"""

from __future__ import annotations

import struct

__all__ = [
    "appldata",
    "mraplsdt",
    "mrhdr",
    "mrioddev",
    "mrmtrdev",
    "mrmtrend",
    "mrmtrepr",
    "mrmtrsch",
    "mrmtrspr",
    "mrmtrsys",
    "mrmtrusr",
    "mrprcprp",
    "mrstoasi",
    "mrstorsg",
    "mrsytcug",
    "mrsytprp",
    "mrsytrsg",
    "mrsytsyg",
    "mrsytxsg",
    "mruseact",
    "tod_of",
]

EBCDIC = "cp500"
TOD_EPOCH_1900 = 0
PAGES = "https://www.ibm.com/support/pages/zvm/pubs/mon730/"


def tod_of(seconds: float) -> int:
    """A TOD clock value *seconds* after the epoch (bit 51 = one microsecond)."""
    return round(seconds * 1_000_000) << 12


def _chars(text: str, length: int) -> bytes:
    return text.ljust(length)[:length].encode(EBCDIC)


def mrhdr(length: int, domain: int, number: int, tod: int) -> bytes:
    """MRHDR (MRRECHDR): length 2, zeros 2, domain 1, reserved 1, record 2, TOD 8, reserved 4."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrrechdr.html
    return (
        length.to_bytes(2, "big")
        + bytes(2)
        + bytes([domain, 0])
        + number.to_bytes(2, "big")
        + tod.to_bytes(8, "big")
        + bytes(4)
    )


def _record(length: int, domain: int, number: int, tod: int) -> bytearray:
    rec = bytearray(length)
    rec[:20] = mrhdr(length, domain, number, tod)
    return rec


def mrsytprp(tod: int, cpuad: int, prbtm_us: int, utime_us: int, tmsys_us: int) -> bytes:
    """D0 R2 MRSYTPRP, processor data (per processor); z/VM 5.3, 108 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytprp.html
    rec = _record(108, 0, 2, tod)
    struct.pack_into(">H", rec, 20, cpuad)  # SYTPRP_PFXCPUAD
    struct.pack_into(">Q", rec, 24, prbtm_us * 4096)  # SYTPRP_PFXPRBTM, TOD units
    struct.pack_into(">Q", rec, 32, utime_us * 4096)  # SYTPRP_PFXUTIME
    struct.pack_into(">Q", rec, 40, tmsys_us * 4096)  # SYTPRP_PFXTMSYS
    return bytes(rec)


def mrsytrsg(tod: int) -> bytes:
    """D0 R3 MRSYTRSG, real storage data (global); z/VM 5.3, 492 bytes.

    z/VM 5.3's record: SYTRSG_SYSRSVPG at 36 ... SYTRSG_RSAAFRIU (8) at 216,
    where z/VM 5.2's 224-byte record ends, then 5.3's demand-scan counts to
    SYTRSG_RSARESBC at 488. zvmsim fills none of IBM's fields (all zero).
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytrsg.html
    return bytes(_record(492, 0, 3, tod))


def mrsytxsg(tod: int) -> bytes:
    """D0 R14 MRSYTXSG, minidisk cache data (global); z/VM 5.3, 188 bytes.

    SYTXSG_XSTXBGET at 20 and SYTXSG_XSTXBREL at 24 (both reserved in 7.5),
    ... SYTXSG_TCMPIN4K at 184. zvmsim fills none of IBM's fields (all zero).
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytxsg.html
    return bytes(_record(188, 0, 14, tod))


def mrsytsyg(tod: int, cpucount: int = 0) -> bytes:
    """D0 R19 MRSYTSYG, system data (global); z/VM 5.3, 112 bytes.

    SYTSYG_XCTMSACT (8) at 20, ... SYTSYG_CPUCOUNT (2) at 64, ...
    SYTSYG_VL3CPNAM (16) at 96. zvmsim fills none of IBM's fields; *cpucount*
    lets a test put a real system's value where zvmsim must ignore it.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytsyg.html
    rec = _record(112, 0, 19, tod)
    struct.pack_into(">H", rec, 64, cpucount)  # SYTSYG_CPUCOUNT
    return bytes(rec)


def mrsytcug(
    tod: int,
    npar: int,
    lpnumber: int,
    lparname: str,
    cpucount: int,
    cpucfgct: int,
    cpudedct: int,
    cpushard: int,
    flag: int = 0,
    slice_: int = 0,
    pcct: int = 0,
) -> bytes:
    """D0 R15 MRSYTCUG, logical partition configuration (global); z/VM 5.3, 56 bytes.

    SYTCUG_LCUTNPAR (1) at 20, LCUTFLAG (1) at 21, 2 reserved, LCUTSLCE (2)
    at 24, LCUTPCCT (2) at 26, LPNUMBER (2) at 28, 1 reserved, CPUCHAR (1)
    at 31, CPUCOUNT, CPUCFGCT, CPUSTNBY, CPURESVD (2 each) at 32-38,
    LPARNAME (8, EBCDIC) at 40, LPARCAF (4) at 48, CPUDEDCT (2) at 52,
    CPUSHARD (2) at 54. *flag*, *slice_* and *pcct* let a test put a real
    system's values where zvmsim reads nothing.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytcug.html
    rec = _record(56, 0, 15, tod)
    rec[20] = npar  # SYTCUG_LCUTNPAR
    rec[21] = flag  # SYTCUG_LCUTFLAG
    struct.pack_into(">HHH", rec, 24, slice_, pcct, lpnumber)  # LCUTSLCE, LCUTPCCT, LPNUMBER
    struct.pack_into(">HH", rec, 32, cpucount, cpucfgct)  # SYTCUG_CPUCOUNT, CPUCFGCT
    rec[40:48] = _chars(lparname, 8)  # SYTCUG_LPARNAME
    struct.pack_into(">HH", rec, 52, cpudedct, cpushard)  # SYTCUG_CPUDEDCT, CPUSHARD
    return bytes(rec)


def mrmtrsys(tod: int, sysid: str, serial: str, cpus: int) -> bytes:
    """D1 R4 MRMTRSYS, system configuration; z/VM 5.3, 184 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrsys.html
    rec = _record(184, 1, 4, tod)
    rec[88:96] = _chars(sysid, 8)  # MTRSYS_SYSTMID
    rec[128:144] = _chars(serial, 16)  # MTRSYS_SYSMSEQC
    struct.pack_into(">H", rec, 154, cpus)  # MTRSYS_CPUCFGCT
    return bytes(rec)


def mrmtrepr(tod: int, edomains: int) -> bytes:
    """D1 R1 MRMTREPR, event profile; z/VM 5.3, 24 bytes.

    *edomains*: MTREPR_EDOMAINS, one byte, domain n is bit n from the left.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrepr.html
    rec = _record(24, 1, 1, tod)
    rec[20] = edomains  # MTREPR_EDOMAINS
    return bytes(rec)


def mrmtrdev(
    tod: int, rdevdev: int, dvid: int, subchannel: int, chpids: bytes, volser: str
) -> bytes:
    """D1 R6 MRMTRDEV, device configuration: 320 bytes (IBM's 7.3 length).

    The fields up to RDEVSER, as z/VM 5.3 and IBM's 7.3 page name them: RDEVDVID
    the device type number in packed decimal (X'3390'), RDEVDEV, RDEVSID the
    subsystem-identification word (X'0001', then the subchannel number),
    RDEVCHPS one CHPID per path, RDEVSER the volume serial.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrdev.html
    rec = _record(320, 1, 6, tod)
    struct.pack_into(">H", rec, 22, dvid)  # MTRDEV_RDEVDVID
    struct.pack_into(">H", rec, 26, rdevdev)  # MTRDEV_RDEVDEV
    struct.pack_into(">I", rec, 28, 0x0001_0000 | subchannel)  # MTRDEV_RDEVSID
    rec[32:40] = chpids.ljust(8, bytes(1))  # MTRDEV_RDEVCHPS
    rec[46:52] = _chars(volser, 6)  # MTRDEV_RDEVSER
    return bytes(rec)


def mrmtrspr(tod: int, sdomains: int) -> bytes:
    """D1 R9 MRMTRSPR, sample profile; z/VM 5.3, 36 bytes.

    *sdomains*: MTRSPR_SDOMAINS, one byte, domain n is bit n from the left.
    MTRSPR_INTERVAL (20) and MTRSPR_HFRATE (24) are left zero, as zvmsim's
    writer leaves them (their units are not in the layouts it was written from).
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrspr.html
    rec = _record(36, 1, 9, tod)
    rec[28] = sdomains  # MTRSPR_SDOMAINS
    return bytes(rec)


def mrmtrsch(tod: int, dsp: tuple[int, int, int], ldgcp: int) -> bytes:
    """D1 R16 MRMTRSCH, scheduler settings; z/VM 5.3, 96 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrsch.html
    rec = _record(96, 1, 16, tod)
    struct.pack_into(">I", rec, 56, ldgcp)  # MTRSCH_SRMLDGCP
    struct.pack_into(">III", rec, 76, *dsp)  # MTRSCH_SRML1DSP, SRML2DSP, SRML3DSP
    return bytes(rec)


def mrmtrend(tod: int) -> bytes:
    """D1 R11 MRMTREND, end of a sample set: the MRHDR alone, 20 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrend.html
    return bytes(_record(20, 1, 11, tod))


def mrmtrusr(tod: int, userid: str, cpus: int, relshare: int) -> bytes:
    """D1 R15 MRMTRUSR, a logged-on user; z/VM 5.3, 124 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrusr.html
    rec = _record(124, 1, 15, tod)
    rec[20:28] = _chars(userid, 8)  # MTRUSR_VMDUSER
    rec[31] = cpus  # MTRUSR_VMDCPUCT
    struct.pack_into(">I", rec, 36, relshare)  # MTRUSR_VMDRELSH
    return bytes(rec)


def mrprcprp(tod: int, cpuad: int) -> bytes:
    """D5 R3 MRPRCPRP, processor data; z/VM 5.3, 384 bytes: PRCPRP_PFXCPUAD at 20."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrprcprp.html
    rec = _record(384, 5, 3, tod)
    struct.pack_into(">H", rec, 20, cpuad)  # PRCPRP_PFXCPUAD
    return bytes(rec)


def mrstorsg(tod: int, avllt: int, avclt: int) -> bytes:
    """D3 R1 MRSTORSG, real storage management (global); z/VM 5.3, 352 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstorsg.html
    rec = _record(352, 3, 1, tod)
    struct.pack_into(">I", rec, 40, avllt)  # STORSG_RSAAVLLT: available list low threshold
    struct.pack_into(">I", rec, 300, avclt)  # STORSG_RSAAVCLT: contiguous-frame low threshold
    return bytes(rec)


def mrstoasi(tod: int, owner: str, name: str, resident: int, reads: int, writes: int) -> bytes:
    """D3 R14 MRSTOASI, address space; z/VM 5.3, 144 bytes."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstoasi.html
    rec = _record(144, 3, 14, tod)
    rec[20:28] = _chars(owner, 8)  # STOASI_ASCUSRID
    rec[28:52] = _chars(name, 24)  # STOASI_ASCNAME
    struct.pack_into(">I", rec, 60, resident)  # STOASI_ASCCTPRS
    struct.pack_into(">I", rec, 68, reads)  # STOASI_ASCCSPGR
    struct.pack_into(">I", rec, 72, writes)  # STOASI_ASCCSPGW
    return bytes(rec)


def mruseact(tod: int, userid: str) -> bytes:
    """D4 R3 MRUSEACT, user activity: USEACT_VMDUSER at 20 and VMDCPUAD at 28 (32 bytes).

    IBM's 6.1 and 6.2 pages (mon610, mon620 MRUSEACT) give the head: VMDUSER
    20 (8 characters), VMDCPUAD 28 (unsigned 2, zero: the base virtual CPU).

    Only the user identification is at IBM's offsets in zvmsim's record
    (docs/monwrite-format.md); the rest travels in zvmsim's APPLDATA.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mruseact.html
    rec = _record(32, 4, 3, tod)
    rec[20:28] = _chars(userid, 8)  # USEACT_VMDUSER
    return bytes(rec)


def mrioddev(
    tod: int,
    rdevdev: int,
    ssch: int,
    conn_128us: int,
    pend_128us: int,
    disc_128us: int,
    cuq_128us: int = 0,
) -> bytes:
    """D6 R3 MRIODDEV, device activity; z/VM 5.3, 260 bytes (times in 128-us units)."""
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mrioddev.html
    rec = _record(260, 6, 3, tod)
    struct.pack_into(">I", rec, 56, conn_128us)  # IODDEV_SCMCNTIM
    struct.pack_into(">I", rec, 60, pend_128us)  # IODDEV_SCMFPTIM
    struct.pack_into(">I", rec, 64, disc_128us)  # IODDEV_SCMDDTIM
    struct.pack_into(">I", rec, 180, cuq_128us)  # IODDEV_SCMCQTIM
    struct.pack_into(">I", rec, 192, ssch)  # IODDEV_SCGSSCH
    struct.pack_into(">H", rec, 200, rdevdev)  # IODDEV_RDEVDEV
    return bytes(rec)


def mraplsdt(tod: int, userid: str, product: str, data: bytes) -> bytes:
    """D10 R2 MRAPLSDT, sample application data: IBM's header, then the application's data.

    APLSDT_CALDATOF (offset of the data, 52), APLSDT_CALDATLN, APLSDT_USERID
    (the virtual machine that provided the data), APLSDT_MDGPROD (16
    characters: the product identifier), APLSDT_STATUS, 3 reserved bytes.
    """
    # https://www.ibm.com/support/pages/zvm/pubs/mon730/mraplsdt.html
    head = struct.pack(">hh8s16sB3x", 52, len(data), _chars(userid, 8), _chars(product, 16), 0)
    return mrhdr(52 + len(data), 10, 2, tod) + head + data


def appldata(
    tod: int,
    name: str,
    values: list[int | tuple[str, int]],
    exact: list[tuple[int, int]] = (),  # type: ignore[assignment]
) -> bytes:
    """zvmsim's D10 R2 APPLDATA for record *name*: its own fields in order, then exact values.

    *values* gives each field: an int (8-byte signed) or (text, length) (EBCDIC).
    *exact* gives (field index, integer) pairs: the exact value of an IBM field
    whose IBM form is coarser (the index counts the record's fields, the TOD
    being 0).
    """
    # MRAPLSDT: https://www.ibm.com/support/pages/zvm/pubs/mon730/mraplsdt.html
    data = b"".join(
        struct.pack(">q", v) if isinstance(v, int) else _chars(v[0], v[1]) for v in values
    )
    data += bytes([len(exact)])  # the exact values of IBM fields that follow
    data += b"".join(bytes([index]) + struct.pack(">q", v) for index, v in exact)
    head = struct.pack(
        ">hh8s16sB3x", 52, len(data), _chars("ZVMSIM", 8), _chars(f"ZVMSIM  {name}", 16), 0
    )
    return mrhdr(52 + len(data), 10, 2, tod) + head + data
