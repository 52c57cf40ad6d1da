"""Rendering: results and state turned into Discord messages, one renderer per thing."""
