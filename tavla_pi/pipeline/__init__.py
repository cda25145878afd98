"""One scan of the product: sensors -> decode -> reconcile -> game -> LEDs.

The daemon runs it on the real clock and ``tavla-pi replay`` on a virtual one.
"""

from tavla_pi.pipeline.step import SCAN_MS, Pipeline, PipelineSettings

__all__ = ["SCAN_MS", "Pipeline", "PipelineSettings"]
