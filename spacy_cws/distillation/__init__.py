"""Knowledge distillation: ensembles of trained segmenters and the soft gap
targets a student learns from (above the segmenter, below the CLI)."""
