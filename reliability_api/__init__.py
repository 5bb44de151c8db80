"""The Reliability API: a small read-mostly HTTP service over the warehouse."""
