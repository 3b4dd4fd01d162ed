"""Work in the other partitions of the CEC: z/OS servers the z/VM guests talk to.

z/VM's monitor does not see inside another partition; these servers exist
so that z/VM guests have someone to talk to, and so that their CPU demand
reaches PR/SM (:mod:`zvmsim.hardware.pools`).
"""
