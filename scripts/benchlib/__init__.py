"""scripts/bench's parts and plumbing: one module per part (core, scale, uifilter, sync, syncread,
transport), each with NAME, SETTINGS (per mode: full, quick, smoke), measure(ctx) -> (detail,
figures) and show(detail, figures, out); the rest is shared. scripts/bench says which is which."""
