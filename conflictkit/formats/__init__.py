"""Built-in loaders: Markdown, plain text and HTML (the formats that need no extra package)."""
