"""The Control Program: dispatching, real I/O with PAV, minidisk cache."""
