"""Model and search providers: the gateway every model step goes through,
the vendor clients behind it, the offline rules, search, cache and retries."""
