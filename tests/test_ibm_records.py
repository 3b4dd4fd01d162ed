"""zvmsim's reader against IBM's layouts: records built by hand from the documented offsets.

The encoders in ``tests/ibm_records.py`` do not use zvmsim's writer. Each
test decodes such records with zvmsim's reader and checks every field at
its documented value, then builds a small run from them and checks the
report lines they give.
"""

from __future__ import annotations

import dataclasses

import ibm_monwrite
import ibm_records as ibm
import pytest

import zvmsim
from zvmsim.cli import main as cli_main
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.records import (
    MRAPLEDT,
    MRIODDEV,
    MRMTRDEV,
    MRMTREND,
    MRMTREPR,
    MRMTRSCH,
    MRMTRSPR,
    MRMTRSYS,
    MRMTRUSR,
    MRPRCPRP,
    MRSTOASI,
    MRSTORSG,
    MRSYTCUG,
    MRSYTPRP,
    MRSYTRSG,
    MRSYTSYG,
    MRSYTXSG,
    MRUSEACT,
    Record,
    decode,
    domain_mask,
)
from zvmsim.monitor.stream import MonitorData
from zvmsim.perfkit import reduce

T0 = ibm.tod_of(3_900_000_000.0)  # some moment in 2023
MINUTE = ibm.tod_of(60.0)


def _all(data: bytes) -> list[Record]:
    out, offset = [], 0
    while offset < len(data):
        rec, offset = decode(data, offset)
        out.append(rec)
    return out


def _one(data: bytes) -> Record:
    rec, end = decode(data)
    assert end == len(data)
    return rec


def test_mrhdr_is_ibms() -> None:
    """MRHDR: length, zeros, domain, reserved byte, record number, TOD, 4 reserved bytes."""
    raw = ibm.mrmtrend(T0)
    assert raw == bytes.fromhex("0014 0000 01 00 000b") + T0.to_bytes(8, "big") + bytes(4)
    rec = _one(raw)
    assert type(rec) is MRMTREND and rec.tod == T0
    # our writer's MRHDR matches byte for byte (the extension follows it)
    assert MRMTREND(tod=T0).encode()[0] == raw


def test_d0_r2_mrsytprp() -> None:
    rec = _one(ibm.mrsytprp(T0, cpuad=3, prbtm_us=1_500_000, utime_us=2_000_000, tmsys_us=250))
    assert rec == MRSYTPRP(tod=T0, cpu=3, prbtm_us=1_500_000, utime_us=2_000_000, tmsys_us=250)
    assert MRSYTPRP.IBM_LENGTH == 108


def test_d0_r19_mrsytsyg() -> None:
    """A real system's D0 R19 (no zvmsim APPLDATA): IBM's fields are not ours, all zero."""
    rec = _one(ibm.mrsytsyg(T0, cpucount=6))
    assert rec == MRSYTSYG(tod=T0)
    assert MRSYTSYG.IBM_LENGTH == 112


def test_d0_r19_with_our_appldata() -> None:
    """zvmsim's D0 R19: IBM's record, then our APPLDATA with the high-frequency counts."""
    values = [40, 100, 350, 20, 10, 200, 60, 80, 9, 6, 5, 7, 1, 2, 3]
    rec = _one(ibm.mrsytsyg(T0) + ibm.appldata(T0, "MRSYTSYG", values))
    assert type(rec) is MRSYTSYG
    assert (rec.logged, rec.hf_samples, rec.hf_dispatch, rec.hf_eligible) == (40, 100, 350, 20)
    assert (rec.cls_q0, rec.cls_e3, rec.hf_loading, rec.hf_loading_e3) == (10, 5, 7, 3)
    assert MRSYTSYG(tod=T0, **dict(zip(_names(MRSYTSYG), values, strict=True))).encode() == [
        ibm.mrsytsyg(T0),
        ibm.appldata(T0, "MRSYTSYG", values),
    ]


def test_d0_r3_mrsytrsg() -> None:
    values = [500_000, 3_000, 0, 0, 12, 4_000, 10, 2, 0, 1, 0, 0, 0, 60, 180_000, 1_000, 2_000]
    rec = _one(ibm.mrsytrsg(T0) + ibm.appldata(T0, "MRSYTRSG", values))
    assert type(rec) is MRSYTRSG
    assert (rec.frames, rec.available, rec.scans, rec.pass2) == (500_000, 3_000, 12, 2)
    assert (rec.low_threshold, rec.high_threshold) == (1_000, 2_000)
    assert _one(ibm.mrsytrsg(T0)) == MRSYTRSG(tod=T0)
    assert MRSYTRSG.IBM_LENGTH == 492
    ours = MRSYTRSG(tod=T0, **dict(zip(_names(MRSYTRSG), values, strict=True)))
    assert ours.encode() == [ibm.mrsytrsg(T0), ibm.appldata(T0, "MRSYTRSG", values)]


def test_d0_r14_mrsytxsg() -> None:
    values: list[int | tuple[str, int]] = [("TRACK", 6), 8192, 65536, 12]
    values += [900, 600, 250, 40, 30, 45, 20, ("CENTRAL", 8), 0, 5]
    rec = _one(ibm.mrsytxsg(T0) + ibm.appldata(T0, "MRSYTXSG", values))
    assert type(rec) is MRSYTXSG
    assert (rec.level, rec.size_pages, rec.reads, rec.read_hits) == ("TRACK", 8192, 900, 600)
    assert (rec.home, rec.given_back) == ("CENTRAL", 5)
    assert MRSYTXSG.IBM_LENGTH == 188
    plain = [v if isinstance(v, int) else v[0] for v in values]
    ours = MRSYTXSG(tod=T0, **dict(zip(_names(MRSYTXSG), plain, strict=True)))
    assert ours.encode() == [ibm.mrsytxsg(T0), ibm.appldata(T0, "MRSYTXSG", values)]


def test_d0_r15_mrsytcug() -> None:
    """D0 R15: the partition the data was collected in, wholly IBM's record."""
    raw = ibm.mrsytcug(T0, 5, 3, "LMRPROD", 6, 6, 2, 4, flag=0x80, slice_=25, pcct=14)
    rec = _one(raw)
    assert rec == MRSYTCUG(
        tod=T0, partitions=5, number=3, cpus=6, configured=6, name="LMRPROD", dedicated=2, shared=4
    )
    assert MRSYTCUG.IBM_LENGTH == 56
    # our writer: IBM's record alone (no APPLDATA), the fields we do not read zero
    assert rec.encode() == [ibm.mrsytcug(T0, 5, 3, "LMRPROD", 6, 6, 2, 4)]


def test_our_appldata_without_its_ibm_record_is_refused() -> None:
    """An extension belongs right after the IBM record it completes."""
    with pytest.raises(ZvmsimError, match="follows no such record"):
        _all(ibm.appldata(T0, "MRSYTSYG", [1] + [0] * 14))


def _names(kind: type[Record]) -> list[str]:
    return [f.name for f in dataclasses.fields(kind) if f.name != "tod"]


def test_d1_r4_mrmtrsys() -> None:
    rec = _one(ibm.mrmtrsys(T0, sysid="LMRPROD", serial="0000000ABC123", cpus=6))
    assert type(rec) is MRMTRSYS
    assert (rec.sysid, rec.serial, rec.processors) == ("LMRPROD", "0000000ABC123", 6)
    assert rec.cpu_model == rec.zvm_level == rec.title == ""  # not in IBM's record


def test_d1_r15_mrmtrusr() -> None:
    rec = _one(ibm.mrmtrusr(T0, "LINUX01", cpus=2, relshare=200))
    assert type(rec) is MRMTRUSR
    assert (rec.userid, rec.virtual_cpus, rec.share_relative) == ("LINUX01", 2, 200)


def test_d1_r1_mrmtrepr() -> None:
    rec = _one(ibm.mrmtrepr(T0, edomains=0x20))  # domain 2, Scheduler
    assert rec == MRMTREPR(tod=T0, event_domains=domain_mask(2))
    assert MRMTREPR(tod=T0, event_domains=domain_mask(2, 7)).encode() == [ibm.mrmtrepr(T0, 0x21)]


def test_d1_r9_mrmtrspr() -> None:
    rec = _one(ibm.mrmtrspr(T0, sdomains=0xCA))  # domains 0, 1, 4, 6
    assert rec == MRMTRSPR(tod=T0, sample_domains=domain_mask(0, 1, 4, 6))
    assert rec.interval_ms == rec.hf_rate_cs == 0  # ours: in APPLDATA, absent here


def test_d1_r9_a_domain_past_7_travels_in_our_appldata() -> None:
    """IBM's byte holds domains 0-7; the whole mask goes to our APPLDATA."""
    ours = MRMTRSPR(tod=T0, interval_ms=60_000, hf_rate_cs=100, sample_domains=domain_mask(0, 10))
    raw = ours.encode()
    assert raw[0] == ibm.mrmtrspr(T0, sdomains=0x80)
    assert _one(b"".join(raw)) == ours


def test_d1_r6_mrmtrdev() -> None:
    rec = _one(ibm.mrmtrdev(T0, 0xE701, 0x3390, 0x1F, bytes([0x20, 0x21, 0x40]), "LX0001"))
    assert type(rec) is MRMTRDEV
    assert (rec.rdev, rec.devtype, rec.volser, rec.chpids, rec.subchannel) == (
        "E701",
        "3390",
        "LX0001",
        "20,21,40",
        0x1F,
    )
    assert rec.base == rec.control_unit == "" and rec.links == 0  # ours: in APPLDATA


def test_d1_r6_model_suffix_travels_in_our_appldata() -> None:
    ours = MRMTRDEV(
        tod=T0, rdev="E700", devtype="3390-9", volser="LX0001", chpids="20,21", subchannel=4
    )
    raw = ours.encode()
    assert raw[0] == ibm.mrmtrdev(T0, 0xE700, 0x3390, 4, bytes([0x20, 0x21]), "LX0001")
    assert _one(b"".join(raw)) == ours


def test_d1_r16_mrmtrsch() -> None:
    rec = _one(ibm.mrmtrsch(T0, dsp=(32767, 32767, 32767), ldgcp=5))
    assert type(rec) is MRMTRSCH
    assert (rec.dspbuf1, rec.dspbuf2, rec.dspbuf3, rec.loading_capacity) == (32767,) * 3 + (5,)
    ours = MRMTRSCH(tod=T0, storbuf1=300, dspbuf1=40, dspbuf2=30, dspbuf3=20, loading_capacity=9)
    assert ours.encode()[0] == ibm.mrmtrsch(T0, dsp=(40, 30, 20), ldgcp=9)


def test_d5_r3_mrprcprp() -> None:
    rec = _one(ibm.mrprcprp(T0, cpuad=0x0A))
    assert type(rec) is MRPRCPRP and rec.cpu == "0A" and rec.susp_us == 0
    ours = MRPRCPRP(tod=T0, cpu="0A", pu_type="IFL", susp_us=5)
    assert ours.encode()[0] == ibm.mrprcprp(T0, 0x0A)


def test_d10_r2_mraplsdt_names_the_guest() -> None:
    """A guest's APPLDATA: IBM's header names the guest; the data is the application's."""
    data = "CICSPROD".encode("cp500") + (12).to_bytes(8, "big") + (3_000).to_bytes(8, "big")
    raw = ibm.mraplsdt(T0, "CICS01", "ZVMSIM  MRAPLEDT", data + bytes(1))
    rec = _one(raw)
    assert rec == MRAPLEDT(tod=T0, userid="CICS01", workload="CICSPROD", txns=12, resp_us=3_000)
    assert b"".join(rec.encode()) == raw


def test_d3_r1_mrstorsg() -> None:
    rec = _one(ibm.mrstorsg(T0, avllt=2048, avclt=512))
    assert type(rec) is MRSTORSG
    assert (rec.sing_low, rec.cont_low) == (2048, 512)
    assert rec.pushed == rec.agelist_pages == 0  # ours: in APPLDATA, absent here


def test_d3_r14_mrstoasi() -> None:
    rec = _one(ibm.mrstoasi(T0, "LINUX01", "LINUX01 BASE", resident=5000, reads=7, writes=9))
    assert type(rec) is MRSTOASI
    assert (rec.owner, rec.space, rec.resident, rec.page_reads, rec.page_writes) == (
        "LINUX01",
        "LINUX01 BASE",
        5000,
        7,
        9,
    )


def test_appldata_of_another_product_is_refused() -> None:
    raw = bytearray(ibm.appldata(T0, "MRSYTSYG", [1] + [0] * 14))
    raw[32:48] = "OTHERPRODUCT    ".encode("cp500")  # APLSDT_MDGPROD
    with pytest.raises(ZvmsimError, match="not zvmsim's"):
        decode(bytes(raw))


def test_d4_r3_mruseact() -> None:
    rec = _one(ibm.mruseact(T0, "BATCH1"))
    assert type(rec) is MRUSEACT and rec.userid == "BATCH1" and rec.tcpu_us == 0


def test_d6_r3_mrioddev() -> None:
    rec = _one(ibm.mrioddev(T0, 0x0E700, ssch=6000, conn_128us=100, pend_128us=2, disc_128us=7))
    assert type(rec) is MRIODDEV
    assert rec.rdev == "E700"
    assert (rec.ssch, rec.conn_us, rec.pend_us, rec.disc_us) == (6000, 12_800, 256, 896)


def test_our_writer_puts_fields_at_ibms_offsets() -> None:
    """The converse: the bytes our writer gives for IBM's fields are the hand encoder's."""
    ours = MRIODDEV(tod=T0, rdev="E700", ssch=6000, conn_us=12_800, pend_us=256, disc_us=896)
    assert ours.encode()[0] == ibm.mrioddev(T0, 0xE700, 6000, 100, 2, 896 // 128)
    prp = MRSYTPRP(tod=T0, cpu=1, prbtm_us=5, utime_us=7, tmsys_us=2)
    assert prp.encode() == [ibm.mrsytprp(T0, 1, 5, 7, 2)]


def test_ssch_counter_wraps_like_cps() -> None:
    """A 4-byte counter wraps modulo 2**32; the reduction takes the delta modulo it too."""
    data = _run(ssch=(2**32 - 1000, 2**32 + 5000))  # CP's field holds 5000 at the second set
    iv = reduce(data).intervals[0]
    assert iv.devices["E700"]["ssch"] == 6000


def _run(ssch: tuple[int, int] = (10_000, 16_000)) -> MonitorData:
    """A one-interval run (:func:`_groups`) as zvmsim's reader decodes it."""
    return MonitorData(_all(b"".join(_groups(ssch))))


def _groups(ssch: tuple[int, int] = (10_000, 16_000), apps: bool = False) -> list[bytes]:
    """A one-interval run: configuration, then two sample sets a minute apart.

    *ssch* are the device's true cumulative SSCH counts; the 4-byte fields
    hold them (and the times derived from them) modulo 2**32, as CP's do.
    With *apps*, APPLDATA is sampled too: guest CICS01 hands CP its
    transactions in every sample set (IBM's MRAPLSDT, zvmsim's data).
    """
    # sample domains 0-7 in IBM's byte; with APPLDATA (domain 10) the whole
    # mask (MRMTRSPR's field 3) goes in our APPLDATA as its exact value
    exact = [(3, 0xFF20)] if apps else []
    config = b"".join(
        (
            ibm.mrmtrsys(T0, "LMRPROD", "ABC123", 2),
            ibm.mrmtrspr(T0, sdomains=0xFF),  # domains 0-7
            ibm.appldata(T0, "MRMTRSPR", [60_000, 100], exact),  # interval, HF rate
            ibm.mrmtrdev(T0, 0xE700, 0x3390, 0, bytes([0x20, 0x21]), "LX0001"),
            # base, control unit, usage, links, control-unit model
            ibm.appldata(T0, "MRMTRDEV", [("", 4), ("", 16), ("", 8), 3, ("", 8)]),
            ibm.mrmtrusr(T0, "BATCH1", 1, 100),
        )
    )
    sets = []
    for k, count in enumerate(ssch):
        tod = T0 + (k + 1) * MINUTE
        tcpu, vcpu = (k + 1) * 6_000_000, (k + 1) * 4_500_000  # 6 s and 4.5 s a minute
        sets.append(
            b"".join(
                (
                    ibm.mrsytsyg(tod),
                    ibm.appldata(tod, "MRSYTSYG", [1] + [0] * 14),
                    ibm.mrsytprp(tod, 0, vcpu, tcpu, 1_000_000 * (k + 1)),
                    ibm.mruseact(tod, "BATCH1"),
                    ibm.appldata(tod, "MRUSEACT", [tcpu, vcpu, 600 * (k + 1)] + [0] * 38),
                    # 6000 I/Os a minute, 100 a second: connect 1.28 ms, pending 0.256 ms,
                    # disconnect 0.896 ms each
                    ibm.mrioddev(
                        tod,
                        0xE700,
                        *(n % 2**32 for n in (count, 10 * count)),
                        *(n % 2**32 for n in (2 * count, 7 * count)),
                    ),
                    *([_cics(tod, 1200 * (k + 1))] if apps else []),
                    ibm.mrmtrend(tod),
                )
            )
        )
    return [config, *sets]


def _cics(tod: int, txns: int) -> bytes:
    """CICS01's APPLDATA: *txns* transactions so far, 50 ms each."""
    data = "CICSPROD".encode("cp500") + txns.to_bytes(8, "big") + (50_000 * txns).to_bytes(8, "big")
    return ibm.mraplsdt(tod, "CICS01", "ZVMSIM  MRAPLEDT", data + bytes(1))


def test_txn_line_from_ibm_records() -> None:
    """1200 transactions a minute, 50 ms each: 20 a second at 50 ms."""
    run = MonitorData(_all(b"".join(_groups(apps=True))))
    row = zvmsim.report(run, "TXN").frame.set_index("userid").loc["CICS01"]
    assert (row["workload"], row["etr"], row["resp_ms"]) == ("CICSPROD", 20.0, 50.0)


def test_fcx108_line_from_ibm_records() -> None:
    rep = zvmsim.report(_run(), "FCX108")
    row = rep.frame.set_index("addr").loc["E700"]
    assert row["io_rate"] == pytest.approx(100.0)
    assert row["conn_ms"] == pytest.approx(1.28)
    assert row["pend_ms"] == pytest.approx(0.256)
    assert row["disc_ms"] == pytest.approx(0.896)
    assert row["pct_busy"] == pytest.approx(100 * 100 * (1.28 + 0.256 + 0.896) / 1000)
    line = next(x for x in rep.text.splitlines() if x.lstrip().startswith("E700"))
    assert line.split()[:16] == E700_LINE


# I/O 100/s, avoid .0, pend .3, disc .9, conn 1.3, serv 2.4, resp 2.4, cuwt .0, qued .0,
# busy 24 %, then Perfkit's columns zvmsim does not simulate
E700_LINE = "E700 3390 LX0001 3 2 100 .0 .3 .9 1.3 2.4 2.4 .0 .0 24 0".split()


def _split(data: bytes) -> list[bytes]:
    """The records of *data*, each as long as its MRHDRLEN says."""
    out, offset = [], 0
    while offset < len(data):
        length = int.from_bytes(data[offset : offset + 2], "big")
        out.append(data[offset : offset + length])
        offset += length
    return out


def test_an_ibm_monwrite_file_of_hand_built_records_is_reduced(tmp_path, capsys) -> None:
    """Neither the records nor their container come from zvmsim's writer: the
    records from IBM's record layouts (ibm_records), the file from IBM's MONWRITE
    layout (ibm_monwrite), one sample message per sample set."""
    raw = ibm_monwrite.monwrite_file([(ibm_monwrite.SAMPLE, [_split(g)]) for g in _groups()])
    path = tmp_path / "from-a-real-system.mon"
    path.write_bytes(raw)
    assert cli_main(["report", "--from", str(path), "FCX108"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.lstrip().startswith("E700"))
    assert line.split()[:16] == E700_LINE


def test_fcx112_line_from_ibm_records() -> None:
    rep = zvmsim.report(_run(), "FCX112")
    row = rep.frame.set_index("userid").loc["BATCH1"]
    assert row["pct_cpu"] == pytest.approx(10.0)
    assert row["tv_ratio"] == pytest.approx(6 / 4.5)
    assert row["vio_rate"] == pytest.approx(10.0)
    line = next(x for x in rep.text.splitlines() if x.startswith("BATCH1"))
    assert "10.0" in line


def test_fcx131_line_from_ibm_device_records_alone() -> None:
    """A real system's device configuration (no zvmsim APPLDATA): FCX131 from IBM's fields."""
    _config, *sets = _groups()
    config = b"".join(
        (
            ibm.mrmtrsys(T0, "LMRPROD", "ABC123", 2),
            ibm.mrmtrspr(T0, sdomains=0xFF),
            *(
                ibm.mrmtrdev(T0, 0xE700 + k, 0x3390, 0x40 + k, bytes([0x20, 0x21]), f"LX000{k + 1}")
                for k in range(3)
            ),
            ibm.mrmtrusr(T0, "BATCH1", 1, 100),
        )
    )
    run = MonitorData(_all(b"".join([config, *sets])))
    row = zvmsim.report(run, "FCX131").frame.iloc[0]
    assert (row["addr"], row["subchannel"], row["devices"], row["type"]) == (
        "E700-E702",
        "0040-0042",
        3,
        "3390",
    )
    assert (row["volser"], row["chpid_1"], row["chpid_2"], row["paths"]) == (
        "LX0001-LX0003",
        "20",
        "21",
        2,
    )


def test_fcx149_from_ibm_profile_records_alone() -> None:
    """A real system's D1 R9 and D1 R1: the domains from IBM's bytes, the interval unknown."""
    _config, *sets = _groups()
    config = b"".join(
        (
            ibm.mrmtrsys(T0, "LMRPROD", "ABC123", 2),
            ibm.mrmtrspr(T0, sdomains=0xCA),  # System, Monitor, User, I/O
            ibm.mrmtrepr(T0, edomains=0x20),  # Scheduler
            ibm.mrmtrusr(T0, "BATCH1", 1, 100),
        )
    )
    rep = zvmsim.report(MonitorData(_all(b"".join([config, *sets]))), "FCX149")
    row = rep.frame.iloc[0]
    assert (row["sample_domains"], row["event_domains"]) == ("SYSTEM MONITOR USER I/O", "SCHEDULER")
    assert "Sample interval ............................        ... sec" in rep.text


def test_fcx100_takes_processor_time_from_mrsytprp() -> None:
    """FCX100's split comes from D0 R2's IBM fields: busy is PFXUTIME + PFXTMSYS,
    %SYS is PFXTMSYS, %EMU is PFXPRBTM. The run has no MRPRCPRP (zvmsim's D5 R3),
    so the processor's elapsed time is the interval's and none of it is suspended."""
    rep = zvmsim.report(_run(), "FCX100")
    row = rep.frame.set_index("cpu").loc["00"]
    # a minute: user time 6 s (emulation 4.5 s of it), system time 1 s
    assert row["pct_cpu"] == pytest.approx(100 * 7 / 60)
    assert row["pct_usr"] == pytest.approx(10.0)
    assert row["pct_sys"] == pytest.approx(100 / 60)
    assert row["pct_emu"] == pytest.approx(7.5)
    assert row["pct_susp"] == 0


def test_a_processor_without_its_d0_r2_times_is_refused() -> None:
    """D5 R3 names processor 01 but no D0 R2 carries its times: one plain error."""
    groups = _groups()
    for k in (1, 2):
        groups[k] = ibm.mrprcprp(T0 + k * MINUTE, 0x01) + groups[k]
    with pytest.raises(ZvmsimError, match=r"processor 01 \(D5 R3\) without its times"):
        zvmsim.report(MonitorData(_all(b"".join(groups))), "FCX100")
