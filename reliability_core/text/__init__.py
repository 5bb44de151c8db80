"""Text rules: normalisation for matching and the mechanical quote and value checks ([V] T1)."""
