"""Stand-ins shared by the storage tests (the compiled modules take only their real classes)."""

from __future__ import annotations

from zvmsim.cp.io import VolumeIO


class StandInVolume(VolumeIO):
    """A volume for quiet (untimed) page-outs, where only slots matter: a VolumeIO with
    nothing but its request counts (the compiled PageVolume takes only a VolumeIO)."""

    def __init__(self) -> None:  # none of VolumeIO's own state
        self.in_flight = self.held = 0
