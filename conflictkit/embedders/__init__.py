"""Built-in embedders (model-free). Model-backed embedders live in installable plugins under backends/."""
