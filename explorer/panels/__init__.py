"""The panels: one per concept, each a view of the app state wired to explorer.core and explorer.plotting."""
