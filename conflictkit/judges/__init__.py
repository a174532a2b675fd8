"""Built-in judges that need no model: legal atoms, and judge composition (cascade, weighted)."""
