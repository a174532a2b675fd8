"""Built-in retrievers. BM25 and hybrid retrieval live in an installable plugin under backends/."""
