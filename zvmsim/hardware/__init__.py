"""What IBM sells: channels, control units and DASD (more to come: CEC, OSA)."""
