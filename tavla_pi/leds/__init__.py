"""leds stage of the pipeline (see PRODUCT.md)."""
