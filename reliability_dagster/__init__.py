"""Orchestration of the reliability method: assets, resources, sensors, jobs, checks."""
