"""The Dagster layer: moves data between storage and ragpipe.core."""
