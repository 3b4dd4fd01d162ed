"""Guest workloads: what runs inside the virtual machines.

A workload class takes the machine, its VMDBK, its parameters and a random
stream, names the minidisks it links (``links``), and provides ``run()``, a
SimPy process. ``WORKLOADS`` maps the names used in scenario files to classes.
"""

from __future__ import annotations

from .base import Idle
from .batch import BatchJob
from .cms import CmsCopyfile, CmsLight, CmsQuery
from .cmsdb import CmsDatabase
from .cmsint import CmsInteractive
from .compute import Compute
from .db_client import LinuxDbClient
from .linux import LinuxServer, LinuxThrasher
from .linux_app import LinuxApp, VdiskWriter
from .network import LinuxNetwork, VSwitchController
from .service import CmsService
from .streamer import LinuxStreamer
from .vdisk_format import VdiskFormatter
from .virstor import ApacheServer, AwmClient, Virstor
from .vmcf import VmcfClient, VmcfServer
from .zosflash import ZosFlashCopy

__all__ = [
    "WORKLOADS",
    "BatchJob",
    "ApacheServer",
    "AwmClient",
    "Virstor",
    "CmsCopyfile",
    "CmsInteractive",
    "CmsLight",
    "Compute",
    "CmsQuery",
    "CmsService",
    "CmsDatabase",
    "ZosFlashCopy",
    "Idle",
    "LinuxApp",
    "LinuxDbClient",
    "LinuxNetwork",
    "LinuxServer",
    "LinuxStreamer",
    "LinuxThrasher",
    "VdiskFormatter",
    "VdiskWriter",
    "VSwitchController",
    "VmcfClient",
    "VmcfServer",
]

WORKLOADS = {
    "idle": Idle,
    "cms_copyfile": CmsCopyfile,
    "cms_light": CmsLight,
    "compute": Compute,
    "linux_thrasher": LinuxThrasher,
    "linux_server": LinuxServer,
    "linux_app": LinuxApp,
    "vdisk_writer": VdiskWriter,
    "vswitch_controller": VSwitchController,
    "linux_network": LinuxNetwork,
    "vdisk_formatter": VdiskFormatter,
    "cms_query": CmsQuery,
    "cms_service": CmsService,
    "cms_interactive": CmsInteractive,
    "batch_job": BatchJob,
    "linux_db_client": LinuxDbClient,
    "linux_stream": LinuxStreamer,
    "virstor": Virstor,
    "apache": ApacheServer,
    "awm": AwmClient,
    "vmcf_client": VmcfClient,
    "vmcf_server": VmcfServer,
    "cms_database": CmsDatabase,
    "zos_flashcopy": ZosFlashCopy,
}
