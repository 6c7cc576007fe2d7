"""Tuning a metric's weights against human scores (`ulcdb tune`)."""
