"""CP Monitor: record definitions, the collector, and monitor data streams."""
