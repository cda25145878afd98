"""reconcile stage of the pipeline (see PRODUCT.md)."""
